# SPDX-License-Identifier: Apache-2.0
# ctest <board>.heap: boots tests/heap/heap.c's image, every benchmark ok, and judges the heap's
# figures in its records with heap-check.
# -DRUNNER=<runner;args> -DCMD=<cmd> -DLOG=<file> -DCHECK=<heap-check>
execute_process(COMMAND ${RUNNER} --quiet --check --expect heap_churn=ok --expect heap_exhaust=ok
                --expect heap_mark=ok --expect heap_reset=ok --save ${LOG} -- ${CMD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the heap image did not end as expected (status ${rc})")
endif()
execute_process(COMMAND ${CHECK} ${LOG} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the heap's figures are not right")
endif()
