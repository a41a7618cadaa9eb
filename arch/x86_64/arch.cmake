# x86_64 bare metal: PVH entry into long mode, IDT exception reports, TSC probing. Flags come
# from the board (BM_ARCH_FLAGS); the image is linked non-PIE and static at its load address.
set(BM_ARCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/start.S
  ${CMAKE_CURRENT_LIST_DIR}/arch.c)
set(BM_ARCH_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
