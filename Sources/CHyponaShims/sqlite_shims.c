#include "ht_sqlite.h"

sqlite3_destructor_type ht_sqlite_transient(void) { return SQLITE_TRANSIENT; }
