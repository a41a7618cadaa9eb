# SPDX-License-Identifier: Apache-2.0
# ctest qemu.<board>.faults: boots the kit's image and the fault-injection image, requires each
# injected fault to be reported with its kind (bm run --expect), and every other benchmark of the
# fault image to report exactly the figures it has in the kit's image (same-figures; when SAME is
# given: deterministic boards).
# -DRUNNER=<runner;args> -DKIT=<cmd> -DFAULTS=<cmd> -DEXPECT=<--expect;n=s;...> -DWORK=<dir> -DSAME=<script>
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${RUNNER} --quiet --check --save ${WORK}/kit.log -- ${KIT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the kit's image did not pass (status ${rc})")
endif()
execute_process(COMMAND ${RUNNER} --quiet --check --expect-status 1 ${EXPECT} --save ${WORK}/faults.log -- ${FAULTS}
                RESULT_VARIABLE rc)
file(READ ${WORK}/faults.log log)
string(REGEX MATCHALL "\n[a-z_]+ +(ok|FAIL|TRAP|TIMEOUT|STACK|SCRATCH)[^\n]*" rows "${log}")
string(REPLACE ";" "" rows "${rows}")
message("${rows}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fault image's faults were not reported as expected (status ${rc})")
endif()
# Deterministic boards only: a hosted run's figures differ run to run anyway (bm run already
# required every benchmark not expected to fail to be ok).
if(SAME)
  execute_process(COMMAND ${SAME} ${WORK}/kit.log ${WORK}/faults.log RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the fault image's good benchmarks differ from the kit's")
  endif()
endif()
