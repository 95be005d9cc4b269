# frozen_string_literal: true

require "ffi"
require_relative "library"

module Courier
  # The C functions of include/courier.h (ABI 1.4) that the binding calls, attached through ffi.
  # Every call that can block or call back into Ruby is attached with `blocking: true`, so the
  # GVL is released while it runs: other Ruby threads go on, and a callback on the calling thread
  # takes the GVL back instead of deadlocking against it.
  module Native
    extend FFI::Library

    LIBRARY_PATH = Library.locate
    ffi_lib LIBRARY_PATH

    # courier_client_options as the header declares it up to ABI 1.4.
    class ClientOptions < FFI::Struct
      layout :struct_size, :size_t,
             :transport, :int,
             :timeout_ms, :int64,
             :connect_timeout_ms, :int64,
             :follow_redirects, :int32,
             :max_redirects, :int32,
             :max_body_bytes, :int64,
             :verify_tls, :int32,
             :callback_threads, :int32,
             :proxy, :pointer,
             :no_proxy, :pointer,
             :ignore_environment_proxy, :int32,
             :http_version, :int,
             :ca_file, :pointer,
             :ca_directory, :pointer,
             :client_certificate, :pointer,
             :client_key, :pointer,
             :client_key_password, :pointer,
             :min_tls_version, :int,
             :skip_host_verification, :int32,
             :max_connections_per_host, :int32,
             :max_connections, :int32,
             :max_idle_connections, :int32,
             :disable_decompression, :int32,
             :idle_timeout_ms, :int64,
             :user_agent, :pointer,
             :default_headers, :pointer,
             :cookie_file, :pointer,
             :queue_completions, :int32,
             :keep_cookies, :int32,
             :unix_socket_path, :pointer,
             :resolve, :pointer,
             :connect_to, :pointer,
             :pinned_public_keys, :pointer,
             :netrc_file, :pointer,
             :use_netrc, :int32
    end

    callback :data_fn, %i[pointer pointer size_t], :int
    callback :progress_fn, %i[pointer int64 int64 int64 int64], :void
    callback :head_fn, %i[pointer pointer], :int
    callback :cancel_check_fn, [:pointer], :int
    callback :exchange_fn, %i[pointer pointer], :int
    callback :destroy_fn, [:pointer], :void

    # courier_send_options up to ABI 1.2.
    class SendOptions < FFI::Struct
      layout :struct_size, :size_t,
             :on_data, :data_fn,
             :on_progress, :progress_fn,
             :user_data, :pointer,
             :on_head, :head_fn,
             :should_cancel, :cancel_check_fn
    end

    # courier_interceptor.
    class Interceptor < FFI::Struct
      layout :struct_size, :size_t,
             :name, :pointer,
             :on_request, :exchange_fn,
             :on_response, :exchange_fn,
             :around, :exchange_fn,
             :user_data, :pointer,
             :destroy, :destroy_fn
    end

    attach_function :courier_strerror, [:int], :string
    attach_function :courier_error_code, [:pointer], :int
    attach_function :courier_error_message, [:pointer], :string
    attach_function :courier_error_stage, [:pointer], :pointer
    attach_function :courier_error_status, [:pointer], :int
    attach_function :courier_error_free, [:pointer], :int
    attach_function :courier_abi_version, [], :uint32
    attach_function :courier_version, [], :string

    attach_function :courier_request_new, %i[string string pointer pointer], :int
    attach_function :courier_request_new_endpoint, %i[string string string pointer pointer], :int
    attach_function :courier_request_free, [:pointer], :int
    attach_function :courier_request_set_method, %i[pointer string pointer], :int
    attach_function :courier_request_set_url, %i[pointer string pointer], :int
    attach_function :courier_request_add_query, %i[pointer string string pointer], :int
    attach_function :courier_request_set_header, %i[pointer string string pointer], :int
    attach_function :courier_request_add_header, %i[pointer string string pointer], :int
    attach_function :courier_request_remove_header, %i[pointer string pointer], :int
    attach_function :courier_request_set_basic_auth, %i[pointer string string pointer], :int
    attach_function :courier_request_set_bearer_auth, %i[pointer string pointer], :int
    attach_function :courier_request_set_timeout_ms, %i[pointer int64 pointer], :int
    attach_function :courier_request_set_body_bytes, %i[pointer pointer size_t string pointer], :int
    attach_function :courier_request_set_body_json, %i[pointer string pointer], :int
    attach_function :courier_request_add_form_field, %i[pointer string string pointer], :int
    attach_function :courier_request_set_body_file, %i[pointer string string pointer], :int
    attach_function :courier_request_add_multipart_field, %i[pointer string string pointer], :int
    attach_function :courier_request_add_multipart_data, %i[pointer string string string pointer size_t pointer], :int
    attach_function :courier_request_add_multipart_file, %i[pointer string string string string pointer], :int
    attach_function :courier_request_method, %i[pointer pointer pointer], :int
    attach_function :courier_request_url, %i[pointer pointer pointer], :int
    attach_function :courier_request_header, %i[pointer string pointer pointer], :int
    attach_function :courier_request_header_count, %i[pointer pointer pointer], :int
    attach_function :courier_request_header_at, %i[pointer size_t pointer pointer pointer], :int
    attach_function :courier_request_body, %i[pointer pointer pointer pointer], :int

    attach_function :courier_response_new, %i[int pointer pointer], :int
    attach_function :courier_response_free, [:pointer], :int
    attach_function :courier_response_status, %i[pointer pointer pointer], :int
    attach_function :courier_response_url, %i[pointer pointer pointer], :int
    attach_function :courier_response_header, %i[pointer string pointer pointer], :int
    attach_function :courier_response_header_count, %i[pointer pointer pointer], :int
    attach_function :courier_response_header_at, %i[pointer size_t pointer pointer pointer], :int
    attach_function :courier_response_body, %i[pointer pointer pointer pointer], :int
    attach_function :courier_response_set_status, %i[pointer int pointer], :int
    attach_function :courier_response_set_header, %i[pointer string string pointer], :int
    attach_function :courier_response_add_header, %i[pointer string string pointer], :int
    attach_function :courier_response_remove_header, %i[pointer string pointer], :int
    attach_function :courier_response_set_body, %i[pointer pointer size_t pointer], :int

    attach_function :courier_client_options_init, [:pointer], :void
    attach_function :courier_send_options_init, [:pointer], :void
    attach_function :courier_interceptor_init, [:pointer], :void
    attach_function :courier_client_new, %i[pointer pointer pointer], :int
    # Freeing may run the destroy callbacks of Ruby interceptors on this thread.
    attach_function :courier_client_free, [:pointer], :int, blocking: true
    attach_function :courier_client_send_with, %i[pointer pointer pointer pointer pointer], :int, blocking: true
    attach_function :courier_client_add_interceptor, %i[pointer pointer pointer], :int
    attach_function :courier_client_remove_interceptor, %i[pointer string pointer], :int, blocking: true
    attach_function :courier_client_add_builtin, %i[pointer string string pointer], :int

    attach_function :courier_exchange_request, %i[pointer pointer pointer], :int
    attach_function :courier_exchange_response, %i[pointer pointer pointer], :int
    attach_function :courier_exchange_respond, %i[pointer pointer pointer], :int
    attach_function :courier_exchange_fail, %i[pointer int string pointer], :int
    attach_function :courier_exchange_attempt, %i[pointer pointer pointer], :int
    attach_function :courier_exchange_request_id, %i[pointer pointer pointer], :int

    # Loading runs the plugin's init, which may call back into the host.
    attach_function :courier_plugin_load, %i[pointer string string pointer pointer], :int, blocking: true
    attach_function :courier_plugin_unload, %i[pointer pointer], :int, blocking: true
    attach_function :courier_plugin_name, %i[pointer pointer pointer], :int
    attach_function :courier_plugin_version, %i[pointer pointer pointer], :int
    attach_function :courier_plugin_free, [:pointer], :int

    # An extensible struct zeroed, filled by its exported *_init and sized as declared here:
    # what the header's inline *_init does for C.
    def self.new_struct(type, init)
      struct = type.new
      send(init, struct.pointer)
      struct[:struct_size] = type.size
      struct
    end
  end
end
