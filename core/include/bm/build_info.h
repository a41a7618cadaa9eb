/* SPDX-License-Identifier: Apache-2.0 */
/* Facts about the image's build for the meta record, generated per image at build time by
 * tools/bm-build-info (so they describe this image, not the kit's own objects). */
#ifndef BM_BUILD_INFO_H
#define BM_BUILD_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

struct bm_build_info {
	const char *kit_vcs;   /* git describe --always --dirty of the kit's tree, or "unknown" */
	const char *label;     /* BM_LABEL, "" when none */
	const char *built_for; /* qemu-icount, qemu, hardware or hosted */
	const char *cflags;    /* the real compile line of the benchmark sources */
	const char *opt;       /* its optimisation flag */
	int icount;            /* 1: built for QEMU -icount (every counter a count of instructions) */
};

extern const struct bm_build_info bm_build_info;

#ifdef __cplusplus
}
#endif

#endif
