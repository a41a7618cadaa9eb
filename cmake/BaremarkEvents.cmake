# SPDX-License-Identifier: Apache-2.0
# Events beside cycles and instructions (docs/events.md): -DBM_EVENTS=name,name,... picks them by
# portable name; the board's arch reads up to BM_EVENT_SLOTS_MAX of them in its snapshot, and the
# firmware says in its meta record which it counts and why it does not count the others. The
# portable names (BM_EVENT_NAMES) and BM_EVENTS_MAX are tools/bmlib/shared.py's (BaremarkShared.cmake).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkShared.cmake)

set(BM_EVENTS "" CACHE STRING "Events to count besides cycles and instructions, name,name,... (docs/events.md); empty: the board's default (BM_EVENTS_DEFAULT); none: no events")

# _bm_events_defs(<board> <usage-out> <kit-out>): the definitions every source of the board's images
# sees (BM_EVENT_SLOTS: it sizes the snapshot) and those only the kit does (the names, the board's
# event encodings). A name that is not portable (asked for, or in the board's BM_EVENT_CODES), given
# twice, or too many: a configuration error.
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
  foreach(c ${BM_EVENT_CODES}) # (a board's encoding of an event no longer portable would never be used)
    string(REGEX REPLACE "=.*" "" e "${c}")
    if(NOT e IN_LIST BM_EVENT_NAMES)
      message(FATAL_ERROR "Board ${board}: BM_EVENT_CODES names '${e}', which is not an event name (docs/events.md).")
    endif()
  endforeach()
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
