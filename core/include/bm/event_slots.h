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

#endif
