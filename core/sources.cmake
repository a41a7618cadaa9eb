# The portable core's sources, for the firmware (cmake/Baremark.cmake) and the host unit tests
# (core/CMakeLists.txt): one list, so a new core file is added once.
set(BM_CORE_SOURCE_NAMES bm_out.c bm_crc32.c bm_record.c bm_wide.c bm_scratch.c bm_port.c bm_clock.c bm_band.c
    bm_harness.c bm_samples.c bm_model.c bm_events.c bm_run.c bm_report.c bm_records.c bm_recover.c bm_guard.c
    bm_fatal.c bm_state.c
    stats/bm_stats_layout.c stats/bm_stats_insert.c stats/bm_stats_report.c stats/bm_stats_wide.c stats/bm_stats_record.c
    stats/bm_stats_check.c)
