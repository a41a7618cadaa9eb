# ctest host.stats_tables_current: regenerate the bin table and compare it with the checked-in one.
execute_process(COMMAND ${GEN} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/gen-stats-tables failed (${rc})")
endif()
file(READ ${HDR} have)
if(NOT out STREQUAL have)
  message(FATAL_ERROR "core/stats/bm_stats_tables.h differs from tools/gen-stats-tables output: regenerate it")
endif()
