#include "ht_mhd.h"

const char *ht_mhd_version(void) { return MHD_get_version(); }
