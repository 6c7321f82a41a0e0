//! The IRT functions the module imports from its host.
//!
//! Every one is imported (module `irt`, under its name in the NaCl headers) and placed in
//! the function table after the module's own functions, in this order, so that the guest
//! reaches it through an ordinary indirect call, as it reaches them under `pnacl run`
//! (whose runtime numbers them the same way: the same guest values). The JavaScript host
//! builds the interface tables of the query function from the import names; the names,
//! slot orders and table sizes of the interfaces are the host's (`js/irt/query.mjs`).

use pnacl_bitcode::ir::Ty;

/// One imported IRT function: its name and PNaCl signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostFunction {
    /// Its name (the import name).
    pub name: &'static str,
    /// Result type.
    pub ret: Ty,
    /// Parameter types.
    pub params: &'static [Ty],
}

use Ty::{Double as D, Float as F, I32 as W, I64 as L, Void as V};

macro_rules! f {
    ($name:literal, $ret:expr, [$($p:expr),*]) => {
        HostFunction { name: $name, ret: $ret, params: &[$($p),*] }
    };
}

/// Every IRT function, the query function first, in table order (the order of `pnacl
/// run`'s runtime).
pub const FUNCTIONS: &[HostFunction] = ALL.split_at(COMMAND_LINE).0;

/// The host functions a module imports: [`FUNCTIONS`], and for a browser (PPAPI) program
/// also the PPAPI hook and the browser's (`PPB_*`) functions after them.
pub fn functions(browser: bool) -> &'static [HostFunction] {
    if browser { ALL } else { FUNCTIONS }
}

/// How many of [`ALL`] a command-line program imports.
const COMMAND_LINE: usize = 51;

/// Every host function, in table order: the IRT's, then the PPAPI hook's and the
/// browser's (`PPB_*` interfaces, named `ppb_GROUP_FUNCTION`; the JavaScript host's
/// `web/` modules implement them and build the interface tables). Their signatures are
/// the C headers' after PNaCl's ABI simplification: a struct argument (`PP_Var`,
/// `PP_CompletionCallback`) is passed as a pointer to a copy, a struct result is written
/// through a pointer passed first, enums and `PP_Bool` are `i32`, `PP_Time` is `double`.
const ALL: &[HostFunction] = &[
    f!("query", W, [W, W, W]),
    // basic
    f!("exit", V, [W]),
    f!("gettod", W, [W]),
    f!("clock", W, [W]),
    f!("nanosleep", W, [W, W]),
    f!("sched_yield", W, []),
    f!("sysconf", W, [W, W]),
    // fdio
    f!("close", W, [W]),
    f!("dup", W, [W, W]),
    f!("dup2", W, [W, W]),
    f!("read", W, [W, W, W, W]),
    f!("write", W, [W, W, W, W]),
    f!("seek", W, [W, L, W, W]),
    f!("fstat", W, [W, W]),
    f!("getdents", W, [W, W, W, W]),
    f!("fchdir", W, [W]),
    f!("fchmod", W, [W, W]),
    f!("fsync", W, [W]),
    f!("fdatasync", W, [W]),
    f!("ftruncate", W, [W, L]),
    f!("isatty", W, [W, W]),
    // filename
    f!("open", W, [W, W, W, W]),
    f!("stat", W, [W, W]),
    f!("mkdir", W, [W, W]),
    f!("rmdir", W, [W]),
    f!("chdir", W, [W]),
    f!("getcwd", W, [W, W]),
    f!("unlink", W, [W]),
    f!("truncate", W, [W, L]),
    f!("lstat", W, [W, W]),
    f!("link", W, [W, W]),
    f!("rename", W, [W, W]),
    f!("symlink", W, [W, W]),
    f!("chmod", W, [W, W]),
    f!("access", W, [W, W]),
    f!("readlink", W, [W, W, W, W]),
    f!("utimes", W, [W, W]),
    // memory
    f!("mmap", W, [W, W, W, W, W, L]),
    f!("munmap", W, [W, W]),
    f!("mprotect", W, [W, W, W]),
    // tls
    f!("tls_init", W, [W]),
    f!("tls_get", W, []),
    // thread, futex
    f!("thread_create", W, [W, W, W]),
    f!("thread_exit", V, [W]),
    f!("thread_nice", W, [W]),
    f!("futex_wait_abs", W, [W, W, W]),
    f!("futex_wake", W, [W, W, W]),
    // clock_get, random, getpid
    f!("clock_getres", W, [W, W]),
    f!("clock_gettime", W, [W, W]),
    f!("get_random_bytes", W, [W, W, W]),
    f!("getpid", W, [W]),
    // nacl-irt-ppapihook-0.1
    f!("ppapi_start", W, [W]),
    f!("ppapi_register_thread_creator", V, [W]),
    // PPB_GetInterface, given to PPP_InitializeModule
    f!("ppb_get_interface", W, [W]),
    // PPB_Core;1.0
    f!("ppb_core_add_ref_resource", V, [W]),
    f!("ppb_core_release_resource", V, [W]),
    f!("ppb_core_get_time", D, []),
    f!("ppb_core_get_time_ticks", D, []),
    f!("ppb_core_call_on_main_thread", V, [W, W, W]),
    f!("ppb_core_is_main_thread", W, []),
    // PPB_Instance;1.0
    f!("ppb_instance_bind_graphics", W, [W, W]),
    f!("ppb_instance_is_full_frame", W, [W]),
    // PPB_Messaging;1.0 and 1.2
    f!("ppb_messaging_post_message", V, [W, W]),
    f!("ppb_messaging_register_message_handler", W, [W, W, W, W]),
    f!("ppb_messaging_unregister_message_handler", V, [W]),
    // PPB_Var;1.0, 1.1, 1.2
    f!("ppb_var_add_ref", V, [W]),
    f!("ppb_var_release", V, [W]),
    f!("ppb_var_var_from_utf8_1_0", V, [W, W, W, W]),
    f!("ppb_var_var_from_utf8", V, [W, W, W]),
    f!("ppb_var_var_to_utf8", W, [W, W]),
    f!("ppb_var_var_to_resource", W, [W]),
    f!("ppb_var_var_from_resource", V, [W, W]),
    // PPB_VarArrayBuffer;1.0
    f!("ppb_var_array_buffer_create", V, [W, W]),
    f!("ppb_var_array_buffer_byte_length", W, [W, W]),
    f!("ppb_var_array_buffer_map", W, [W]),
    f!("ppb_var_array_buffer_unmap", V, [W]),
    // PPB_VarArray;1.0
    f!("ppb_var_array_create", V, [W]),
    f!("ppb_var_array_get", V, [W, W, W]),
    f!("ppb_var_array_set", W, [W, W, W]),
    f!("ppb_var_array_get_length", W, [W]),
    f!("ppb_var_array_set_length", W, [W, W]),
    // PPB_VarDictionary;1.0
    f!("ppb_var_dictionary_create", V, [W]),
    f!("ppb_var_dictionary_get", V, [W, W, W]),
    f!("ppb_var_dictionary_set", W, [W, W, W]),
    f!("ppb_var_dictionary_delete", V, [W, W]),
    f!("ppb_var_dictionary_has_key", W, [W, W]),
    f!("ppb_var_dictionary_get_keys", V, [W, W]),
    // PPB_Console;1.0
    f!("ppb_console_log", V, [W, W, W]),
    f!("ppb_console_log_with_source", V, [W, W, W, W]),
    // PPB_View;1.0, 1.1, 1.2
    f!("ppb_view_is_view", W, [W]),
    f!("ppb_view_get_rect", W, [W, W]),
    f!("ppb_view_is_fullscreen", W, [W]),
    f!("ppb_view_is_visible", W, [W]),
    f!("ppb_view_is_page_visible", W, [W]),
    f!("ppb_view_get_clip_rect", W, [W, W]),
    f!("ppb_view_get_device_scale", F, [W]),
    f!("ppb_view_get_css_scale", F, [W]),
    f!("ppb_view_get_scroll_offset", W, [W, W]),
    // PPB_MessageLoop;1.0
    f!("ppb_message_loop_create", W, [W]),
    f!("ppb_message_loop_get_for_main_thread", W, []),
    f!("ppb_message_loop_get_current", W, []),
    f!("ppb_message_loop_attach_to_current_thread", W, [W]),
    f!("ppb_message_loop_run", W, [W]),
    f!("ppb_message_loop_post_work", W, [W, W, L]),
    f!("ppb_message_loop_post_quit", W, [W, W]),
    // PPB_Graphics2D;1.0 and 1.1
    f!("ppb_graphics2d_create", W, [W, W, W]),
    f!("ppb_graphics2d_is_graphics2d", W, [W]),
    f!("ppb_graphics2d_describe", W, [W, W, W]),
    f!("ppb_graphics2d_paint_image_data", V, [W, W, W, W]),
    f!("ppb_graphics2d_scroll", V, [W, W, W]),
    f!("ppb_graphics2d_replace_contents", V, [W, W]),
    f!("ppb_graphics2d_flush", W, [W, W]),
    f!("ppb_graphics2d_set_scale", W, [W, F]),
    f!("ppb_graphics2d_get_scale", F, [W]),
    // PPB_ImageData;1.0
    f!("ppb_image_data_get_native_image_data_format", W, []),
    f!("ppb_image_data_is_image_data_format_supported", W, [W]),
    f!("ppb_image_data_create", W, [W, W, W, W]),
    f!("ppb_image_data_is_image_data", W, [W]),
    f!("ppb_image_data_describe", W, [W, W]),
    f!("ppb_image_data_map", W, [W]),
    f!("ppb_image_data_unmap", V, [W]),
    // PPB_InputEvent;1.0
    f!("ppb_input_event_request_input_events", W, [W, W]),
    f!("ppb_input_event_request_filtering_input_events", W, [W, W]),
    f!("ppb_input_event_clear_input_event_request", V, [W, W]),
    f!("ppb_input_event_is_input_event", W, [W]),
    f!("ppb_input_event_get_type", W, [W]),
    f!("ppb_input_event_get_time_stamp", D, [W]),
    f!("ppb_input_event_get_modifiers", W, [W]),
    // PPB_FileSystem;1.0 (js/web/files.mjs)
    f!("ppb_file_system_create", W, [W, W]),
    f!("ppb_file_system_is_file_system", W, [W]),
    f!("ppb_file_system_open", W, [W, L, W]),
    f!("ppb_file_system_get_type", W, [W]),
    // PPB_FileRef;1.0, 1.1 (MakeDirectory with a PP_Bool) and 1.2 (with flags)
    f!("ppb_file_ref_create", W, [W, W]),
    f!("ppb_file_ref_is_file_ref", W, [W]),
    f!("ppb_file_ref_get_file_system_type", W, [W]),
    f!("ppb_file_ref_get_name", V, [W, W]),
    f!("ppb_file_ref_get_path", V, [W, W]),
    f!("ppb_file_ref_get_parent", W, [W]),
    f!("ppb_file_ref_make_directory_1_1", W, [W, W, W]),
    f!("ppb_file_ref_make_directory", W, [W, W, W]),
    f!("ppb_file_ref_touch", W, [W, D, D, W]),
    f!("ppb_file_ref_delete", W, [W, W]),
    f!("ppb_file_ref_rename", W, [W, W, W]),
    f!("ppb_file_ref_query", W, [W, W, W]),
    f!("ppb_file_ref_read_directory_entries", W, [W, W, W]),
    // PPB_FileIO;1.0 and 1.1
    f!("ppb_file_io_create", W, [W]),
    f!("ppb_file_io_is_file_io", W, [W]),
    f!("ppb_file_io_open", W, [W, W, W, W]),
    f!("ppb_file_io_query", W, [W, W, W]),
    f!("ppb_file_io_touch", W, [W, D, D, W]),
    f!("ppb_file_io_read", W, [W, L, W, W, W]),
    f!("ppb_file_io_write", W, [W, L, W, W, W]),
    f!("ppb_file_io_set_length", W, [W, L, W]),
    f!("ppb_file_io_flush", W, [W, W]),
    f!("ppb_file_io_close", V, [W]),
    f!("ppb_file_io_read_to_array", W, [W, L, W, W, W]),
    // PPB_MouseInputEvent;1.0 and 1.1
    f!("ppb_mouse_input_event_create_1_0", W, [W, W, D, W, W, W, W]),
    f!("ppb_mouse_input_event_create", W, [W, W, D, W, W, W, W, W]),
    f!("ppb_mouse_input_event_is_mouse_input_event", W, [W]),
    f!("ppb_mouse_input_event_get_button", W, [W]),
    f!("ppb_mouse_input_event_get_position", V, [W, W]),
    f!("ppb_mouse_input_event_get_click_count", W, [W]),
    f!("ppb_mouse_input_event_get_movement", V, [W, W]),
    // PPB_WheelInputEvent;1.0
    f!("ppb_wheel_input_event_create", W, [W, D, W, W, W, W]),
    f!("ppb_wheel_input_event_is_wheel_input_event", W, [W]),
    f!("ppb_wheel_input_event_get_delta", V, [W, W]),
    f!("ppb_wheel_input_event_get_ticks", V, [W, W]),
    f!("ppb_wheel_input_event_get_scroll_by_page", W, [W]),
    // PPB_KeyboardInputEvent;1.0 and 1.2
    f!("ppb_keyboard_input_event_create_1_0", W, [W, W, D, W, W, W]),
    f!("ppb_keyboard_input_event_create", W, [W, W, D, W, W, W, W]),
    f!("ppb_keyboard_input_event_is_keyboard_input_event", W, [W]),
    f!("ppb_keyboard_input_event_get_key_code", W, [W]),
    f!("ppb_keyboard_input_event_get_character_text", V, [W, W]),
    f!("ppb_keyboard_input_event_get_code", V, [W, W]),
    // PPB_TouchInputEvent;1.0
    f!("ppb_touch_input_event_create", W, [W, W, D, W]),
    f!("ppb_touch_input_event_add_touch_point", V, [W, W, W]),
    f!("ppb_touch_input_event_is_touch_input_event", W, [W]),
    f!("ppb_touch_input_event_get_touch_count", W, [W, W]),
    f!("ppb_touch_input_event_get_touch_by_index", V, [W, W, W, W]),
    f!("ppb_touch_input_event_get_touch_by_id", V, [W, W, W, W]),
    // PPB_WebSocket;1.0
    f!("ppb_websocket_create", W, [W]),
    f!("ppb_websocket_is_websocket", W, [W]),
    f!("ppb_websocket_connect", W, [W, W, W, W, W]),
    f!("ppb_websocket_close", W, [W, W, W, W]),
    f!("ppb_websocket_receive_message", W, [W, W, W]),
    f!("ppb_websocket_send_message", W, [W, W]),
    f!("ppb_websocket_get_buffered_amount", L, [W]),
    f!("ppb_websocket_get_close_code", W, [W]),
    f!("ppb_websocket_get_close_reason", V, [W, W]),
    f!("ppb_websocket_get_close_was_clean", W, [W]),
    f!("ppb_websocket_get_extensions", V, [W, W]),
    f!("ppb_websocket_get_protocol", V, [W, W]),
    f!("ppb_websocket_get_ready_state", W, [W]),
    f!("ppb_websocket_get_url", V, [W, W]),
    // PPB_URLLoader;1.0
    f!("ppb_url_loader_create", W, [W]),
    f!("ppb_url_loader_is_url_loader", W, [W]),
    f!("ppb_url_loader_open", W, [W, W, W]),
    f!("ppb_url_loader_follow_redirect", W, [W, W]),
    f!("ppb_url_loader_get_upload_progress", W, [W, W, W]),
    f!("ppb_url_loader_get_download_progress", W, [W, W, W]),
    f!("ppb_url_loader_get_response_info", W, [W]),
    f!("ppb_url_loader_read_response_body", W, [W, W, W, W]),
    f!("ppb_url_loader_finish_streaming_to_file", W, [W, W]),
    f!("ppb_url_loader_close", V, [W]),
    // PPB_URLRequestInfo;1.0
    f!("ppb_url_request_info_create", W, [W]),
    f!("ppb_url_request_info_is_url_request_info", W, [W]),
    f!("ppb_url_request_info_set_property", W, [W, W, W]),
    f!("ppb_url_request_info_append_data_to_body", W, [W, W, W]),
    f!("ppb_url_request_info_append_file_to_body", W, [W, W, L, L, D]),
    // PPB_URLResponseInfo;1.0
    f!("ppb_url_response_info_is_url_response_info", W, [W]),
    f!("ppb_url_response_info_get_property", V, [W, W, W]),
    f!("ppb_url_response_info_get_body_as_file_ref", W, [W]),
];

/// The interface name only browser (PPAPI) programs ask for.
pub const PPAPI_PREFIX: &[u8] = b"nacl-irt-ppapihook";
/// The interface name newlib's pthread library asks for: a program that has it may start
/// threads, and gets shared memory.
pub const THREAD_INTERFACE: &[u8] = b"nacl-irt-thread-0.1";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_programs_import_the_irt_only() {
        assert_eq!(FUNCTIONS.last().map(|h| h.name), Some("getpid"));
        assert_eq!(ALL[COMMAND_LINE].name, "ppapi_start");
        let mut names: Vec<&str> = ALL.iter().map(|h| h.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len(), "import names are unique");
    }
}
