# SPDX-License-Identifier: Apache-2.0
# The deterministic cache model under QEMU (docs/cache-model.md): -DBM_QEMU_MODEL=cache builds the
# TCG plugin tools/qemu-plugins/bmcache.c for this machine, builds the kit with its marker area
# (core/run/bm_model.c) and has `bm run` load the plugin with the board's cache geometry.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/BaremarkShared.cmake)

set(BM_QEMU_MODEL "" CACHE STRING "QEMU model to run the images under: empty (none) or 'cache'")
set(BM_MODEL_L1D "" CACHE STRING "Model's L1D as SIZE:WAYS:LINE bytes (empty: the board's, see docs/cache-model.md)")
set(BM_MODEL_L1I "" CACHE STRING "Model's L1I as SIZE:WAYS:LINE bytes (empty: the board's)")
set(BM_MODEL_L2 "" CACHE STRING "Model's unified L2 as SIZE:WAYS:LINE bytes, or 'none' (empty: the board's)")
# The generic default where a board is no real part (QEMU's virt machines, x86_64):
# BM_MODEL_GENERIC_CACHE (tools/bmlib/shared.py, as the plugin's and bm run's defaults).

if(NOT BM_QEMU_MODEL STREQUAL "" AND NOT BM_QEMU_MODEL STREQUAL "cache")
  message(FATAL_ERROR "BM_QEMU_MODEL=${BM_QEMU_MODEL}: use 'cache' (the cache model) or leave it empty.")
endif()

# The kit's objects get BM_MODEL=1 where they are made (_bm_kit_target, cmake/BaremarkBoard.cmake),
# so an image of a user's own project (baremark_add_firmware) has the area as the kit's tree's do.
if(BM_QEMU_MODEL STREQUAL "cache")
  find_program(BM_HOST_CC NAMES cc gcc REQUIRED)
  set(BM_MODEL_PLUGIN ${CMAKE_BINARY_DIR}/qemu-plugins/bmcache.so CACHE INTERNAL "")
  set(_src ${CMAKE_CURRENT_LIST_DIR}/../tools/qemu-plugins/bmcache.c)
  set(_inc ${CMAKE_CURRENT_LIST_DIR}/../core/include) # (bm/shared.h: what it shares with the kit)
  add_custom_command(OUTPUT ${BM_MODEL_PLUGIN}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/qemu-plugins
    COMMAND ${BM_HOST_CC} -O2 -fPIC -shared -Wall -Wextra -Werror -I${_inc} -o ${BM_MODEL_PLUGIN} ${_src}
    DEPENDS ${_src} ${_inc}/bm/shared.h COMMENT "Building the QEMU cache model plugin" VERBATIM)
  add_custom_target(bm_qemu_model ALL DEPENDS ${BM_MODEL_PLUGIN})
endif()

# bm_model_runner_args(<out> <board>): the `bm run` options that load the model for the board
# (empty without BM_QEMU_MODEL, or on a board run on this machine).
function(bm_model_runner_args out board)
  set(${out} "" PARENT_SCOPE)
  _bm_get(${board} BM_HOSTED)
  if(NOT BM_QEMU_MODEL STREQUAL "cache" OR BM_HOSTED)
    return()
  endif()
  set(geo "")
  foreach(level L1D L1I L2)
    string(TOLOWER ${level} key)
    _bm_get(${board} BM_CACHE_${level})
    set(v "${BM_CACHE_${level}}")
    if(NOT v)
      set(v ${BM_MODEL_GENERIC_CACHE})
      if(level STREQUAL "L2")
        set(v none)
      endif()
    endif()
    if(BM_MODEL_${level})
      set(v ${BM_MODEL_${level}})
    endif()
    if(v STREQUAL "none" AND NOT level STREQUAL "L2")
      message(FATAL_ERROR "BM_QEMU_MODEL=cache: board ${board}'s part has no ${level} (BM_CACHE_${level} none in its "
                          "board.cmake): there is no such cache to model. Give one with -DBM_MODEL_${level}=SIZE:WAYS:LINE "
                          "to model a hypothetical part.")
    endif()
    if(NOT v MATCHES "^(none|[0-9]+:[0-9]+:[0-9]+)$")
      message(FATAL_ERROR "BM_MODEL_${level} / BM_CACHE_${level}='${v}': give SIZE:WAYS:LINE in bytes (e.g. ${BM_MODEL_GENERIC_CACHE})")
    endif()
    list(APPEND geo ${key}=${v})
  endforeach()
  string(REPLACE ";" "," geo "${geo}")
  set(${out} --model ${BM_MODEL_PLUGIN} --model-geometry ${geo} PARENT_SCOPE)
endfunction()
