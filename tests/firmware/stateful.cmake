# SPDX-License-Identifier: Apache-2.0
# ctest qemu.<board>.stateful: boots tests/firmware/stateful.c's image (one benchmark fails on
# purpose: its setup_each does, in the samples; on a deterministic build sort_plain, timed on its
# own output, is flagged ok? too) and judges its records with stateful-check.
# -DRUNNER=<runner;args> -DCMD=<cmd> -DLOG=<file> -DCHECK=<stateful-check;args> -DDETERMINISTIC=<bool>
set(flagged)
if(DETERMINISTIC)
  set(flagged --expect sort_plain=state_dependent)
endif()
execute_process(COMMAND ${RUNNER} --quiet --check --expect-status 1 --expect each_fails_in_samples=fail
                ${flagged} --save ${LOG} -- ${CMD} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the stateful image did not end as expected (status ${rc})")
endif()
execute_process(COMMAND ${CHECK} ${LOG} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the stateful benchmarks' figures are not what setup_each promises")
endif()
