# SPDX-License-Identifier: Apache-2.0
# ctest <board>.overfull_run: the run target of an image the fit plan left unbuilt fails (Ninja:
# status 1) saying "not built" and why, so does its -debug target, `bm run --board-json` exits 2 the same way, and neither
# touches the console saved before (<name>.run.log).
#   -DBUILD=<this build tree> -DBM=<tools/bm> -DNAME=<image> -DDIR=<the image's folder>
set(log ${DIR}/${NAME}.run.log)
file(WRITE ${log} "the console of an earlier run\n")
foreach(t run debug) # (its -debug target as well: no QEMU booting a missing file)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD} --target ${NAME}-${t}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("cmake --build --target ${NAME}-${t}: status ${rc}\n${out}${err}")
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "not built: RAM overflowed by [0-9]+ B")
    message(FATAL_ERROR "the ${t} target of an unbuilt image: status ${rc}, expected non-zero saying 'not built: ...'")
  endif()
endforeach()
execute_process(COMMAND ${BM} run --board-json ${DIR}/${NAME}.board.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("bm run --board-json: status ${rc}\n${out}${err}")
if(NOT rc EQUAL 2 OR NOT err MATCHES "was not built .*nothing run; the console saved before")
  message(FATAL_ERROR "bm run --board-json of an unbuilt image: status ${rc}, expected 2 saying so")
endif()
file(READ ${log} kept)
if(NOT kept STREQUAL "the console of an earlier run\n")
  message(FATAL_ERROR "${log} was changed: '${kept}'")
endif()
