/* SPDX-License-Identifier: Apache-2.0 */
/* How many event counters the snapshot reads (BM_EVENTS, cmake/BaremarkEvents.cmake): the build
 * passes BM_EVENT_SLOTS to the kit and to every benchmark source alike, since it sizes struct
 * arch_snap and struct bm_delta. 0, the default, leaves every snapshot as it was. */
#ifndef BM_EVENT_SLOTS_H
#define BM_EVENT_SLOTS_H

#ifndef BM_EVENT_SLOTS
#define BM_EVENT_SLOTS 0
#endif
#if BM_EVENT_SLOTS < 0 || BM_EVENT_SLOTS > 4
#error "BM_EVENT_SLOTS must be 0..4 (cmake/BaremarkEvents.cmake sets it)"
#endif

/* For an arch's snapshot asm (bm/port.h, events): BM_EV_OPERANDS(s) lists the slots as "=m"
 * operands %[e0].. of s->ev (with a leading comma), BM_EV_N(X) pastes the slot count onto X (an
 * arch's per-count instruction strings X1..X4). */
#define BM_EV_O1(s) , [e0] "=m"((s)->ev[0])
#define BM_EV_O2(s) BM_EV_O1(s), [e1] "=m"((s)->ev[1])
#define BM_EV_O3(s) BM_EV_O2(s), [e2] "=m"((s)->ev[2])
#define BM_EV_O4(s) BM_EV_O3(s), [e3] "=m"((s)->ev[3])
#define BM_EV_CAT_(a, n) a##n
#define BM_EV_N_(a, n) BM_EV_CAT_(a, n)
#define BM_EV_N(a) BM_EV_N_(a, BM_EVENT_SLOTS)
#define BM_EV_OPERANDS(s) BM_EV_N(BM_EV_O)(s)

#endif
