# SPDX-License-Identifier: Apache-2.0
# ctest integration.run_status: the run target's exit status in a build configured with the kit's
# preset (its generator, Ninja): 0 for an image whose benchmarks all pass, 1 for one with one
# failing benchmark (tests/firmware/verify_fail.c) and for an in-place sort without .setup_each
# (tests/firmware/stateful.c's sort_plain: verified, but state-dependent), each console saved as the
# target saves it.
#   -DKIT=<the kit's tree> -DWORK=<scratch build folder> -DPRESET=<configure preset>
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --preset ${PRESET} -B ${WORK} WORKING_DIRECTORY ${KIT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --preset ${PRESET} failed (status ${rc}):\n${out}\n${err}")
endif()
file(STRINGS ${WORK}/CMakeCache.txt gen REGEX "^CMAKE_GENERATOR:INTERNAL=")
message("${PRESET}: ${gen}")
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK} -j2 --target baremark selftest_fail selftest_sort_plain
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build failed (status ${rc}):\n${out}\n${err}")
endif()
# status(<target> <expected status> <verdict the console must end with>)
function(status target want verdict)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK} --target ${target} RESULT_VARIABLE rc
                  OUTPUT_FILE ${WORK}/${target}.out ERROR_FILE ${WORK}/${target}.err)
  file(READ ${WORK}/${target}.out out)
  if(NOT rc STREQUAL want OR NOT out MATCHES "${verdict}")
    file(READ ${WORK}/${target}.err err)
    message(FATAL_ERROR "cmake --build --target ${target}: status ${rc} (expected ${want}), console "
                        "(expected to hold '${verdict}'):\n${out}\n${err}")
  endif()
  message("cmake --build --target ${target}: status ${rc}, as expected")
endfunction()
status(run 0 "baremark: PASS")
status(selftest_fail-run 1 "baremark: FAIL [(]1/2 benchmarks verified, 1 fail[)]")
status(selftest_sort_plain-run 1 "sort_plain +ok[?].*baremark: FAIL [(]1/1 benchmarks verified, 1 state-dependent [(]ok[?][)][)]")
