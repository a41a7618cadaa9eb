/* The statistics keys of a result record (see bm/stats.h). One function, shared by the
 * firmware report and the bm-stats host tool, so both print identical keys. */
#include "bm/record.h"
#include "bm/stats.h"

void bm_stats_record_fields(struct bm_record *r, const struct bm_stats_report *rep)
{
	bm_rec_u64(r, "n", rep->n);
	bm_rec_milli(r, "min", rep->min_milli);
	bm_rec_milli(r, "p50", rep->p50.value_milli);
	bm_rec_milli(r, "p90", rep->p90.value_milli);
	bm_rec_milli(r, "p99", rep->p99.value_milli);
	bm_rec_milli(r, "p999", rep->p999.value_milli);
	bm_rec_milli(r, "max", rep->max_milli);
	bm_rec_milli(r, "mean", rep->mean_milli);
	bm_rec_milli(r, "stddev", rep->stddev_milli);
	bm_rec_u64(r, "cv_ppm", rep->cv_ppm);
	bm_rec_milli(r, "ci95", rep->ci95_milli);
	bm_rec_obj_begin(r, "bound_ppm"); /* 0 = exact nearest-rank answer */
	bm_rec_u64(r, "p50", rep->p50.bound_ppm);
	bm_rec_u64(r, "p90", rep->p90.bound_ppm);
	bm_rec_u64(r, "p99", rep->p99.bound_ppm);
	bm_rec_u64(r, "p999", rep->p999.bound_ppm);
	bm_rec_obj_end(r);
	bm_rec_obj_begin(r, "tukey");
	bm_rec_milli(r, "lo", rep->fence_lo_milli);
	bm_rec_milli(r, "hi", rep->fence_hi_milli);
	bm_rec_u64(r, "out_lo", rep->outliers_lo);
	bm_rec_u64(r, "out_hi", rep->outliers_hi);
	bm_rec_milli(r, "mean", rep->filtered_mean_milli);
	bm_rec_obj_end(r);
	bm_rec_obj_begin(r, "flags");
	bm_rec_bool(r, "coarsened", (rep->flags & BM_STATS_F_COARSENED) != 0);
	bm_rec_bool(r, "saturated", (rep->flags & (BM_STATS_F_SUM_SATURATED | BM_STATS_F_BIN_SATURATED)) != 0);
	bm_rec_obj_end(r);
	bm_rec_u64(r, "bins_per_octave", rep->bins_per_octave);
}
