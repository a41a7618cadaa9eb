# SPDX-License-Identifier: Apache-2.0
# ctest host.stats_tables_current: regenerate a generated header (GEN) and compare it with the
# checked-in one (HDR): the two sides it serves (C and Python) cannot drift.
execute_process(COMMAND ${GEN} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GEN} failed (${rc})")
endif()
file(READ ${HDR} have)
if(NOT out STREQUAL have)
  message(FATAL_ERROR "${HDR} differs from ${GEN}'s output: change the generator's source, then regenerate it (${GEN} > ${HDR})")
endif()
