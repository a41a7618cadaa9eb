# Events beside cycles and instructions (docs/events.md): -DBM_EVENTS=name,name,... picks them by
# portable name; the board's arch reads up to BM_EVENT_SLOTS_MAX of them in its snapshot, and the
# firmware says in its meta record which it counts and why it does not count the others.
include_guard(GLOBAL)

set(BM_EVENTS "" CACHE STRING "Events to count besides cycles and instructions, name,name,... (docs/events.md); empty: the board's default (BM_EVENTS_DEFAULT); none: no events")
# The portable names (docs/events.md says what each counts; tools/bmlib/events.py holds the same list).
set(BM_EVENT_NAMES instructions cycles sw_incr l1d_access l1d_miss l1i_access l1i_miss l2_access l2_miss
    branch branch_miss stall_frontend stall_backend dtlb_miss itlb_miss page_faults minor_faults major_faults
    context_switches cpu_migrations task_clock_ns CACHE INTERNAL "")
set(BM_EVENTS_MAX 8 CACHE INTERNAL "") # (core/include/bm/events.h: BM_EVENTS_MAX)

# _bm_events_defs(<board> <usage-out> <kit-out>): the definitions every source of the board's images
# sees (BM_EVENT_SLOTS: it sizes the snapshot) and those only the kit does (the names, the board's
# event encodings). A name that is not portable, given twice, or too many: a configuration error.
function(_bm_events_defs board usage_out kit_out)
  _bm_get(${board} BM_EVENTS_DEFAULT)
  _bm_get(${board} BM_EVENT_SLOTS_MAX)
  _bm_get(${board} BM_EVENT_CODES)
  set(asked "${BM_EVENTS}")
  if(asked STREQUAL "")
    set(asked "${BM_EVENTS_DEFAULT}")
  endif()
  if(asked STREQUAL "none")
    set(asked "")
  endif()
  string(REPLACE "," ";" asked "${asked}")
  set(seen)
  foreach(e ${asked})
    if(NOT e IN_LIST BM_EVENT_NAMES)
      string(REPLACE ";" ", " all "${BM_EVENT_NAMES}")
      message(FATAL_ERROR "BM_EVENTS: '${e}' is not an event name. Names: ${all} (docs/events.md); or none.")
    endif()
    if(e IN_LIST seen)
      message(FATAL_ERROR "BM_EVENTS: '${e}' is listed twice.")
    endif()
    list(APPEND seen ${e})
  endforeach()
  list(LENGTH seen n)
  if(n GREATER BM_EVENTS_MAX)
    message(FATAL_ERROR "BM_EVENTS: ${n} events asked for; at most ${BM_EVENTS_MAX}.")
  endif()
  if(NOT BM_EVENT_SLOTS_MAX)
    set(BM_EVENT_SLOTS_MAX 0)
  endif()
  set(slots ${n})
  if(slots GREATER BM_EVENT_SLOTS_MAX)
    set(slots ${BM_EVENT_SLOTS_MAX})
  endif()
  string(REPLACE ";" "," names "${seen}")
  string(REPLACE ";" "," codes "${BM_EVENT_CODES}")
  set(${usage_out} BM_EVENT_SLOTS=${slots} PARENT_SCOPE)
  set(${kit_out} "BM_EVENTS_LIST=\"${names}\"" BM_EVENTS_N=${n} "BM_EVENT_CODES=\"${codes}\"" PARENT_SCOPE)
endfunction()
