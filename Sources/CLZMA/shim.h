// liblzma through pkg-config liblzma (liblzma-dev): the raw LZMA2 decoder, with the ARM-Thumb BCJ
// filter, that MCUboot's compressed images need. Every call is made from
// Sources/DFUCore/Image/Compression/LibLZMA.swift. The filter IDs and the smallest dictionary are
// macros Swift does not import (LZMA_VLI_C(), UINT32_C()), so they are restated here as constants,
// prefixed c_lzma_.
#include <lzma.h>

static const lzma_vli c_lzma_filter_lzma2 = LZMA_FILTER_LZMA2;
static const lzma_vli c_lzma_filter_armthumb = LZMA_FILTER_ARMTHUMB;
static const lzma_vli c_lzma_vli_unknown = LZMA_VLI_UNKNOWN;
static const uint32_t c_lzma_dict_size_min = LZMA_DICT_SIZE_MIN;
