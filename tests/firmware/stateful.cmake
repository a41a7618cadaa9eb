# SPDX-License-Identifier: Apache-2.0
# ctest qemu.<board>.stateful: boots tests/firmware/stateful.c's image (one benchmark fails on
# purpose: its setup_each does, in the samples) and judges its records with stateful-check.
# -DRUNNER=<runner;args> -DCMD=<cmd> -DLOG=<file> -DCHECK=<stateful-check;args>
execute_process(COMMAND ${RUNNER} --quiet --check --expect-status 1 --expect each_fails_in_samples=fail
                --save ${LOG} -- ${CMD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the stateful image did not end as expected (status ${rc})")
endif()
execute_process(COMMAND ${CHECK} ${LOG} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the stateful benchmarks' figures are not what setup_each promises")
endif()
