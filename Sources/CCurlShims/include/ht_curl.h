#ifndef HT_CURL_H
#define HT_CURL_H
#include <curl/curl.h>

// curl_easy_setopt / curl_easy_getinfo are variadic; one typed function per argument type
// (the approach of swift-corelibs-foundation's CFURLSession_easy_setopt_*).
CURLcode ht_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ht_curl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode ht_curl_easy_setopt_str(CURL *handle, CURLoption option, const char *value);
CURLcode ht_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ht_curl_easy_setopt_write_cb(CURL *handle, CURLoption option,
                                      size_t (*cb)(char *, size_t, size_t, void *));
CURLcode ht_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ht_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode ht_curl_easy_getinfo_str(CURL *handle, CURLINFO info, char **value);

// CURLVERSION_NOW is a macro aliasing the newest enum value; Swift cannot import it.
curl_version_info_data *ht_curl_version_info_now(void);

#endif
