// Typed C entry points for what Swift cannot import from our C libraries:
// variadic functions (curl_easy_setopt, sqlite3_config, MHD_start_daemon, ...) and macros
// with casts. Every exported symbol carries the `ht_` prefix. One header per library.
#ifndef CHYPONASHIMS_H
#define CHYPONASHIMS_H
#include "ht_curl.h"
#include "ht_sqlite.h"
#include "ht_mhd.h"
#endif
