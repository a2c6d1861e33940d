// Synchronous libpq for Outpost's PostgreSQL hub (electron/engine/db/libpqConnection.ts): a connection whose
// calls block the calling thread until PostgreSQL has answered. Node-API, so every engine worker thread can
// load it; it touches no event loop (the `libpq` npm package registers each connection with the main
// thread's loop, which races that loop from a worker thread).
#define NAPI_VERSION 8
#include <node_api.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  PGconn *conn;
} Connection;

#define CALL(env, call)                                               \
  do {                                                                \
    if ((call) != napi_ok) {                                          \
      napi_throw_error((env), NULL, "pqsync: a Node-API call failed"); \
      return NULL;                                                    \
    }                                                                 \
  } while (0)

static void finalize(napi_env env, void *data, void *hint) {
  Connection *c = (Connection *)data;
  if (c->conn) PQfinish(c->conn);
  free(c);
}

// libpq prints notices on stderr by default: the engine's "already exists, skipping" would fill it.
static void ignore_notice(void *arg, const char *message) {}

static napi_value construct(napi_env env, napi_callback_info info) {
  napi_value self;
  CALL(env, napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
  Connection *c = calloc(1, sizeof(Connection));
  if (!c) {
    napi_throw_error(env, NULL, "pqsync: out of memory");
    return NULL;
  }
  CALL(env, napi_wrap(env, self, c, finalize, NULL, NULL));
  return self;
}

/** The connection and up to `max` arguments. */
static Connection *args_of(napi_env env, napi_callback_info info, size_t max, napi_value *argv, size_t *argc) {
  napi_value self;
  void *data;
  *argc = max;
  if (napi_get_cb_info(env, info, argc, argv, &self, NULL) != napi_ok) return NULL;
  if (napi_unwrap(env, self, &data) != napi_ok) return NULL;
  return (Connection *)data;
}

/** A JavaScript string as a new C string (free it), or NULL for null and undefined. */
static char *c_string(napi_env env, napi_value value) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok || type == napi_null || type == napi_undefined) return NULL;
  size_t length;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &length) != napi_ok) return NULL;
  char *text = malloc(length + 1);
  if (!text) return NULL;
  napi_get_value_string_utf8(env, value, text, length + 1, &length);
  return text;
}

static napi_value string_or_null(napi_env env, const char *text) {
  napi_value value;
  if (text == NULL) napi_get_null(env, &value);
  else napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &value);
  return value;
}

/** connect(conninfo): null once connected, else why not. A connection open before is finished first. */
static napi_value js_connect(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  size_t argc;
  Connection *c = args_of(env, info, 1, argv, &argc);
  if (!c || argc < 1) {
    napi_throw_type_error(env, NULL, "connect(conninfo)");
    return NULL;
  }
  char *conninfo = c_string(env, argv[0]);
  if (c->conn) PQfinish(c->conn);
  c->conn = PQconnectdb(conninfo ? conninfo : "");
  free(conninfo);
  if (PQstatus(c->conn) != CONNECTION_OK) {
    napi_value message = string_or_null(env, PQerrorMessage(c->conn));
    PQfinish(c->conn);
    c->conn = NULL;
    return message;
  }
  PQsetNoticeProcessor(c->conn, ignore_notice, NULL);
  return string_or_null(env, NULL);
}

static napi_value js_finish(napi_env env, napi_callback_info info) {
  size_t argc;
  Connection *c = args_of(env, info, 0, NULL, &argc);
  if (c && c->conn) {
    PQfinish(c->conn);
    c->conn = NULL;
  }
  return NULL;
}

static int set_string(napi_env env, napi_value object, const char *name, const char *text) {
  return napi_set_named_property(env, object, name, string_or_null(env, text)) == napi_ok;
}

/**
 * The answer as an object: { status, bad } and then either { fields, types, rows, tuples } (rows of strings
 * and nulls, as PostgreSQL's text format gives them) or { sqlState, message }. The result is freed here.
 */
static napi_value answer(napi_env env, PGconn *conn, PGresult *res) {
  napi_value object, value;
  ExecStatusType status = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  CALL(env, napi_create_object(env, &object));
  set_string(env, object, "status", PQresStatus(status));
  CALL(env, napi_get_boolean(env, PQstatus(conn) == CONNECTION_BAD, &value));
  CALL(env, napi_set_named_property(env, object, "bad", value));
  if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK || status == PGRES_EMPTY_QUERY) {
    int fields = PQnfields(res), tuples = PQntuples(res);
    napi_value names, types, rows;
    CALL(env, napi_create_array_with_length(env, fields, &names));
    CALL(env, napi_create_array_with_length(env, fields, &types));
    for (int f = 0; f < fields; f++) {
      CALL(env, napi_set_element(env, names, f, string_or_null(env, PQfname(res, f))));
      CALL(env, napi_create_uint32(env, PQftype(res, f), &value));
      CALL(env, napi_set_element(env, types, f, value));
    }
    CALL(env, napi_create_array_with_length(env, tuples, &rows));
    for (int r = 0; r < tuples; r++) {
      napi_value row;
      CALL(env, napi_create_array_with_length(env, fields, &row));
      for (int f = 0; f < fields; f++) {
        if (PQgetisnull(res, r, f)) CALL(env, napi_get_null(env, &value));
        else CALL(env, napi_create_string_utf8(env, PQgetvalue(res, r, f), PQgetlength(res, r, f), &value));
        CALL(env, napi_set_element(env, row, f, value));
      }
      CALL(env, napi_set_element(env, rows, r, row));
    }
    CALL(env, napi_set_named_property(env, object, "fields", names));
    CALL(env, napi_set_named_property(env, object, "types", types));
    CALL(env, napi_set_named_property(env, object, "rows", rows));
    set_string(env, object, "tuples", PQcmdTuples(res));
  } else {
    const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    set_string(env, object, "sqlState", res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL);
    set_string(env, object, "message", primary ? primary : PQerrorMessage(conn));
  }
  if (res) PQclear(res);
  return object;
}

/** The parameters (strings, or null for NULL) as C strings; `*count` set; NULL and a thrown error on a bad array. */
static char **parameters(napi_env env, napi_value array, int *count) {
  uint32_t length;
  if (napi_get_array_length(env, array, &length) != napi_ok) {
    napi_throw_type_error(env, NULL, "parameters must be an array");
    return NULL;
  }
  char **values = calloc(length + 1, sizeof(char *));
  for (uint32_t i = 0; i < length; i++) {
    napi_value item;
    napi_get_element(env, array, i, &item);
    values[i] = c_string(env, item);
  }
  *count = (int)length;
  return values;
}

static void free_parameters(char **values, int count) {
  for (int i = 0; i < count; i++) free(values[i]);
  free(values);
}

static Connection *connected(napi_env env, Connection *c) {
  if (c && c->conn) return c;
  napi_throw_error(env, NULL, "pqsync: not connected");
  return NULL;
}

/** exec(text): a statement without parameters (or several, separated by semicolons: the last one answers). */
static napi_value js_exec(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  size_t argc;
  Connection *c = connected(env, args_of(env, info, 1, argv, &argc));
  if (!c) return NULL;
  char *text = c_string(env, argv[0]);
  PGresult *res = PQexec(c->conn, text ? text : "");
  free(text);
  return answer(env, c->conn, res);
}

/**
 * execParams(text, parameters): one statement, parsed for this run only; execPrepared(name, parameters): a
 * statement prepared before. The same two arguments, told apart by `prepared`.
 */
static napi_value with_parameters(napi_env env, napi_callback_info info, int prepared) {
  napi_value argv[2];
  size_t argc;
  Connection *c = connected(env, args_of(env, info, 2, argv, &argc));
  if (!c) return NULL;
  int count = 0;
  char **values = parameters(env, argv[1], &count);
  if (!values) return NULL;
  char *text = c_string(env, argv[0]);
  const char *const *params = (const char *const *)values;
  PGresult *res = prepared ? PQexecPrepared(c->conn, text ? text : "", count, params, NULL, NULL, 0)
                           : PQexecParams(c->conn, text ? text : "", count, NULL, params, NULL, NULL, 0);
  free(text);
  free_parameters(values, count);
  return answer(env, c->conn, res);
}

static napi_value js_exec_params(napi_env env, napi_callback_info info) {
  return with_parameters(env, info, 0);
}

static napi_value js_exec_prepared(napi_env env, napi_callback_info info) {
  return with_parameters(env, info, 1);
}

/** prepare(name, text, count): a named prepared statement on this connection. */
static napi_value js_prepare(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  size_t argc;
  Connection *c = connected(env, args_of(env, info, 3, argv, &argc));
  if (!c) return NULL;
  int32_t count = 0;
  napi_get_value_int32(env, argv[2], &count);
  char *name = c_string(env, argv[0]);
  char *text = c_string(env, argv[1]);
  PGresult *res = PQprepare(c->conn, name ? name : "", text ? text : "", count, NULL);
  free(name);
  free(text);
  return answer(env, c->conn, res);
}

NAPI_MODULE_INIT() {
  napi_property_descriptor methods[] = {
    {"connect", NULL, js_connect, NULL, NULL, NULL, napi_default, NULL},
    {"finish", NULL, js_finish, NULL, NULL, NULL, napi_default, NULL},
    {"exec", NULL, js_exec, NULL, NULL, NULL, napi_default, NULL},
    {"execParams", NULL, js_exec_params, NULL, NULL, NULL, napi_default, NULL},
    {"prepare", NULL, js_prepare, NULL, NULL, NULL, napi_default, NULL},
    {"execPrepared", NULL, js_exec_prepared, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_value cls;
  if (napi_define_class(env, "Connection", NAPI_AUTO_LENGTH, construct, NULL, sizeof(methods) / sizeof(methods[0]), methods, &cls) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "Connection", cls) != napi_ok) return NULL;
  return exports;
}
