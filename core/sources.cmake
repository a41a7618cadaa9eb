# SPDX-License-Identifier: Apache-2.0
# The portable core's sources, for the firmware (cmake/Baremark.cmake) and the host unit tests
# (core/CMakeLists.txt): one list, so a new core file is added once. By layer (core/README.md).
set(BM_CORE_SOURCE_NAMES out/bm_out.c out/bm_crc32.c out/bm_record.c out/bm_wide.c guard/bm_scratch.c bm_port.c
    run/bm_clock.c run/bm_band.c run/bm_user.c run/bm_measure.c run/bm_verdict.c run/bm_samples.c run/bm_model.c
    run/bm_events.c
    run/bm_run.c report/bm_report.c report/bm_report_header.c report/bm_report_records.c
    guard/bm_recover.c guard/bm_guard.c guard/bm_fatal.c guard/bm_state.c
    stats/bm_stats_layout.c stats/bm_stats_insert.c stats/bm_stats_exact.c stats/bm_stats_report.c stats/bm_stats_wide.c stats/bm_stats_record.c
    stats/bm_stats_check.c serve/bm_serve.c serve/bm_serve_parse.c)
