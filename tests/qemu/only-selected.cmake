# SPDX-License-Identifier: Apache-2.0
# ctest <board>.only_selected: the image links the benchmarks its selection keeps and no other
# (README: "the others are not linked, so their data costs no RAM"): every bm_batch_<name> and
# bm_desc_<name> symbol in the ELF names a benchmark of bm-link's selected.txt.
#   -DNM=<nm> -DELF=<image.elf> -DSELECTED=<gen/selected.txt>
cmake_policy(SET CMP0057 NEW) # (IN_LIST, in a script)
file(STRINGS ${SELECTED} selected)
execute_process(COMMAND ${NM} ${ELF} OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot read ${ELF} with ${NM}")
endif()
string(REGEX MATCHALL "bm_(batch_ev|batch|desc)_[A-Za-z0-9_]+" batches "${syms}") # (batch_ev: with BM_EVENTS)
list(REMOVE_DUPLICATES batches)
set(extra)
foreach(b ${batches})
  string(REGEX REPLACE "^bm_(batch_ev|batch|desc)_" "" n ${b})
  if(NOT n IN_LIST selected AND NOT n MATCHES "^overhead_probe$")
    list(APPEND extra ${n})
  endif()
endforeach()
list(LENGTH batches nb)
list(LENGTH selected ns)
if(extra)
  message(FATAL_ERROR "linked but not selected: ${extra}")
endif()
message("${nb} bm_batch_ and bm_desc_ symbols, of the ${ns} benchmarks selected and no other")
