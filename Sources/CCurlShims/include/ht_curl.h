#ifndef HT_CURL_H
#define HT_CURL_H
#include <curl/curl.h>

// curl_easy_setopt / curl_easy_getinfo are variadic; one typed function per argument type
// (the approach of swift-corelibs-foundation's CFURLSession_easy_setopt_*).
CURLcode ht_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ht_curl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode ht_curl_easy_setopt_str(CURL *handle, CURLoption option, const char *value);
CURLcode ht_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
// Also serves CURLOPT_HEADERFUNCTION: curl_write_callback and the header callback share the
// prototype size_t (char *, size_t, size_t, void *) (curl.h).
CURLcode ht_curl_easy_setopt_write_cb(CURL *handle, CURLoption option,
                                      size_t (*cb)(char *, size_t, size_t, void *));
// curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, cb): the callback type
// (curl_xferinfo_callback) differs from the write callback's, so it needs its own shim.
CURLcode ht_curl_easy_setopt_xferinfo_cb(CURL *handle,
                                         int (*cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode ht_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ht_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode ht_curl_easy_getinfo_str(CURL *handle, CURLINFO info, char **value);

// curl_multi_setopt is variadic too (the long-valued options: CURLMOPT_PIPELINING,
// CURLMOPT_MAX_HOST_CONNECTIONS, CURLMOPT_MAX_CONCURRENT_STREAMS, …).
CURLMcode ht_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
// One message of curl_multi_info_read: 1 and the finished transfer's handle and result when it
// is a CURLMSG_DONE, 0 when the queue is empty (CURLMsg's `data` is a union).
int ht_curl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result);

// CURLVERSION_NOW is a macro aliasing the newest enum value; Swift cannot import it.
curl_version_info_data *ht_curl_version_info_now(void);

// curl_global_init(CURL_GLOBAL_DEFAULT): CURL_GLOBAL_DEFAULT is a macro built from other
// macros with shifts, which Swift does not reliably import; keep the flag choice in C.
CURLcode ht_curl_global_init_default(void);

#endif
