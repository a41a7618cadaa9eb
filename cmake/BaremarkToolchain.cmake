# SPDX-License-Identifier: Apache-2.0
# Before project(): find a board's folder and pick the cross toolchain of its arch. The kit's own
# build includes this; a user's project includes it before its own project() call:
#   set(BM_BOARD hifive1)
#   include(path/to/baremark/cmake/BaremarkToolchain.cmake)
#   project(mine C ASM)
# Boards are looked up in BM_BOARD_DIRS (folders that hold board folders, for a user's own
# boards) and then in the kit's boards/.
get_filename_component(_bm_dir ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(BAREMARK_DIR ${_bm_dir} CACHE INTERNAL "The kit's folder")
set(BM_BOARD_DIRS "" CACHE STRING "Extra folders holding board folders (a user's own boards)")

# bm_find_board(<board> <out>): the board's folder, or a FATAL_ERROR listing the known boards.
function(bm_find_board board out)
  foreach(_d ${BM_BOARD_DIRS} ${BAREMARK_DIR}/boards)
    if(EXISTS ${_d}/${board}/board.cmake)
      get_filename_component(_abs ${_d}/${board} ABSOLUTE)
      set(${out} ${_abs} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(_known)
  foreach(_d ${BM_BOARD_DIRS} ${BAREMARK_DIR}/boards)
    file(GLOB _f RELATIVE ${_d} ${_d}/*/board.cmake)
    string(REPLACE "/board.cmake" "" _f "${_f}")
    list(APPEND _known ${_f})
  endforeach()
  list(REMOVE_ITEM _known template)
  string(REPLACE ";" ", " _known "${_known}")
  message(FATAL_ERROR "Unknown board '${board}'. Boards: ${_known}; or 'host' for unit tests and host tools.")
endfunction()

# bm_board_arch(<board dir> <out>): BM_ARCH of a board (board.cmake only sets variables).
function(bm_board_arch dir out)
  include(${dir}/board.cmake)
  if(NOT BM_ARCH OR NOT EXISTS ${BAREMARK_DIR}/arch/${BM_ARCH}/arch.cmake)
    message(FATAL_ERROR "${dir}/board.cmake: BM_ARCH='${BM_ARCH}' is not a folder under arch/")
  endif()
  set(${out} ${BM_ARCH} PARENT_SCOPE)
endfunction()

if(BM_BOARD AND NOT BM_BOARD STREQUAL "host")
  bm_find_board(${BM_BOARD} _bm_dir)
  bm_board_arch(${_bm_dir} _bm_arch)
  # The arch's toolchain: its arch.cmake, read for BM_CROSS & co. only (it sets variables).
  include(${BAREMARK_DIR}/arch/${_bm_arch}/arch.cmake)
  if(NOT BM_HOSTED_ARCH)
    # What the parameterised toolchain file reads; the presets name the file, or else this does.
    set(BM_CROSS "${BM_CROSS}" CACHE STRING "Cross tool prefix (from the board's arch)")
    set(BM_SYSTEM_PROCESSOR "${BM_SYSTEM_PROCESSOR}" CACHE STRING "CPU family (from the board's arch)")
    set(BM_CROSS_PACKAGES "${BM_CROSS_PACKAGES}" CACHE STRING "Debian packages of the cross toolchain")
    if(NOT CMAKE_TOOLCHAIN_FILE)
      set(CMAKE_TOOLCHAIN_FILE ${BAREMARK_DIR}/toolchain/gcc-cross.cmake CACHE FILEPATH "Toolchain file")
    endif()
  endif()
endif()
