/* PPB_URLLoader, PPB_URLRequestInfo and PPB_URLResponseInfo (1.0) for the browser tests'
 * modules, from Chromium's ppapi/c/ppb_url_loader.h, ppb_url_request_info.h and
 * ppb_url_response_info.h. Include after ppapi_min.h. */
#ifndef PPAPI_URL_H
#define PPAPI_URL_H

struct PPB_URLLoader_1_0 {
  PP_Resource (*Create)(PP_Instance instance);
  PP_Bool (*IsURLLoader)(PP_Resource resource);
  int32_t (*Open)(PP_Resource loader, PP_Resource request_info, struct PP_CompletionCallback callback);
  int32_t (*FollowRedirect)(PP_Resource loader, struct PP_CompletionCallback callback);
  PP_Bool (*GetUploadProgress)(PP_Resource loader, int64_t *bytes_sent, int64_t *total_bytes_to_be_sent);
  PP_Bool (*GetDownloadProgress)(PP_Resource loader, int64_t *bytes_received, int64_t *total_bytes_to_be_received);
  PP_Resource (*GetResponseInfo)(PP_Resource loader);
  int32_t (*ReadResponseBody)(PP_Resource loader, void *buffer, int32_t bytes_to_read,
                              struct PP_CompletionCallback callback);
  int32_t (*FinishStreamingToFile)(PP_Resource loader, struct PP_CompletionCallback callback);
  void (*Close)(PP_Resource loader);
};
struct PPB_URLRequestInfo_1_0 {
  PP_Resource (*Create)(PP_Instance instance);
  PP_Bool (*IsURLRequestInfo)(PP_Resource resource);
  PP_Bool (*SetProperty)(PP_Resource request, int32_t property, struct PP_Var value);
  PP_Bool (*AppendDataToBody)(PP_Resource request, const void *data, uint32_t len);
  PP_Bool (*AppendFileToBody)(PP_Resource request, PP_Resource file_ref, int64_t start_offset,
                              int64_t number_of_bytes, double expected_last_modified_time);
};
struct PPB_URLResponseInfo_1_0 {
  PP_Bool (*IsURLResponseInfo)(PP_Resource resource);
  struct PP_Var (*GetProperty)(PP_Resource response, int32_t property);
  PP_Resource (*GetBodyAsFileRef)(PP_Resource response);
};
/* PP_URLRequestProperty and PP_URLResponseProperty. */
enum {
  REQUEST_URL = 0, REQUEST_METHOD = 1, REQUEST_STREAMTOFILE = 3, REQUEST_RECORDDOWNLOADPROGRESS = 5,
  REQUEST_ALLOWCROSSORIGINREQUESTS = 8
};
enum { RESPONSE_URL = 0, RESPONSE_STATUSCODE = 3, RESPONSE_HEADERS = 5 };
enum { PP_VARTYPE_BOOL = 2 };

#endif
