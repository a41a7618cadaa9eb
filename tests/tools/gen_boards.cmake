# SPDX-License-Identifier: Apache-2.0
# ctest tools.gen_boards: tools/gen-boards on a scratch copy of the kit's board data, README.md and
# CMakePresets.json: current as checked in; README text outside the table's markers is the
# docs' own; a board's changed description makes --check name both files, and a rewrite makes
# them current again with the new row; a README without the markers is refused, naming them.
#   -DGEN=<tools/gen-boards> -DKIT=<the kit's tree> -DWORK=<scratch folder> -DCMAKE=<cmake>
file(REMOVE_RECURSE ${WORK})
file(GLOB boards RELATIVE ${KIT}/boards ${KIT}/boards/*/board.cmake)
foreach(b ${boards})
  configure_file(${KIT}/boards/${b} ${WORK}/boards/${b} COPYONLY)
endforeach()
configure_file(${KIT}/README.md ${WORK}/README.md COPYONLY)
configure_file(${KIT}/CMakePresets.json ${WORK}/CMakePresets.json COPYONLY)

# gen(<expected status> <regex of its output, or ""> <arguments...>)
function(gen status regex)
  execute_process(COMMAND ${GEN} --root ${WORK} --cmake ${CMAKE} ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL status OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "gen-boards ${ARGN}: status ${rc} (expected ${status}), output:\n${out}${err}\n"
                        "expected to match: ${regex}")
  endif()
endfunction()

gen(0 "" --check)
file(APPEND ${WORK}/README.md "\nA paragraph the docs wrote.\n")
gen(0 "" --check)
file(READ ${WORK}/boards/qemu-sifive-u/board.cmake text)
string(REGEX REPLACE "set[(]BM_DESCRIPTION \"[^\"]*\"[)]" "set(BM_DESCRIPTION \"A changed description\")" text "${text}")
file(WRITE ${WORK}/boards/qemu-sifive-u/board.cmake "${text}")
gen(1 "CMakePresets.json differs.*README.md differs|README.md differs.*CMakePresets.json differs" --check)
gen(0 "")
gen(0 "" --check)
file(READ ${WORK}/README.md readme)
if(NOT readme MATCHES "\\| `qemu-sifive-u` \\| A changed description \\| `qemu-system-riscv64 -machine sifive_u` \\|")
  message(FATAL_ERROR "the rewritten table lacks the changed row:\n${readme}")
endif()
if(NOT readme MATCHES "A paragraph the docs wrote")
  message(FATAL_ERROR "the rewrite lost README text outside the markers")
endif()
string(REPLACE "<!-- boards: end -->" "" readme "${readme}")
file(WRITE ${WORK}/README.md "${readme}")
gen(1 "lacks the board table's markers" --check)
message("gen-boards: current, drift named, rewritten, markers required")
