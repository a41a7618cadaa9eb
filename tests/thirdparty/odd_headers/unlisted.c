/* SPDX-License-Identifier: Apache-2.0 */
/* A file of the upstream tree that THIRD_PARTY_FILES does not list: built, it stops the build. */
#error "THIRD_PARTY_FILES does not list this file: it must not be built"
