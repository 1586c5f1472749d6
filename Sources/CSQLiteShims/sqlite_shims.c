#include "ht_sqlite.h"

sqlite3_destructor_type ht_sqlite_transient(void) { return SQLITE_TRANSIENT; }

int ht_sqlite_db_config_bool(sqlite3 *db, int op, int onoff, int *result) {
    return sqlite3_db_config(db, op, onoff, result);
}
