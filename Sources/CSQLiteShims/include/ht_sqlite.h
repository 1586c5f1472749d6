#ifndef HT_SQLITE_H
#define HT_SQLITE_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro with a cast ((sqlite3_destructor_type)-1) that Swift cannot import.
sqlite3_destructor_type ht_sqlite_transient(void);

// sqlite3_db_config is variadic, so Swift cannot call it. This typed wrapper covers the
// boolean options that take (int onoff, int *result), e.g. SQLITE_DBCONFIG_DEFENSIVE and
// SQLITE_DBCONFIG_DQS_DML (https://sqlite.org/c3ref/c_dbconfig_defensive.html).
// `result` may be NULL; otherwise it receives the setting in force after the call.
int ht_sqlite_db_config_bool(sqlite3 *db, int op, int onoff, int *result);

#endif
