// Kineto (PyTorch profiler) trace text for hand-made test traces of the shape current CUPTI
// writes: one host thread (pid 100, tid 100) and GPU 0 (pid 0). Times in µs, as Kineto writes
// them. Each function returns one event followed by ",\n"; Trace() wraps them in a document.
#pragma once

#include <string>

namespace kineto_text {

// A CUDA runtime call (cudaLaunchKernel, cudaEventRecord, cudaStreamSynchronize, ...).
inline std::string Call(int corr, const char* name, double ts, double dur) {
  return R"({"ph":"X","cat":"cuda_runtime","name":")" + std::string(name) +
         R"(","pid":100,"tid":100,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
         std::to_string(dur) + R"(,"args":{"correlation":)" + std::to_string(corr) + "}},\n";
}
// A kernel on GPU 0's stream `stream`, launched by the call of correlation `corr`.
inline std::string Kernel(int corr, const char* name, int stream, double ts, double dur) {
  return R"({"ph":"X","cat":"kernel","name":")" + std::string(name) +
         R"(","pid":0,"tid":)" + std::to_string(stream) + R"(,"ts":)" + std::to_string(ts) +
         R"(,"dur":)" + std::to_string(dur) + R"(,"args":{"correlation":)" +
         std::to_string(corr) + R"(,"stream":)" + std::to_string(stream) + "}},\n";
}
// A cuda_sync event as current CUPTI writes it: neither record nor recorded stream named.
inline std::string Sync(int corr, const char* kind, int event, int stream, double ts, double dur) {
  return R"({"ph":"X","cat":"cuda_sync","name":")" + std::string(kind) +
         R"(","pid":0,"tid":)" + std::to_string(stream) + R"(,"ts":)" + std::to_string(ts) +
         R"(,"dur":)" + std::to_string(dur) +
         R"(,"args":{"wait_on_stream":-1,"wait_on_cuda_event_record_corr_id":-1,)"
         R"("wait_on_cuda_event_id":)" +
         std::to_string(event) + R"(,"stream":)" + std::to_string(stream) +
         R"(,"correlation":)" + std::to_string(corr) + "}},\n";
}
// A ProfilerStep#N slice on the host thread, as the PyTorch profiler marks an iteration.
inline std::string Step(int n, double ts, double dur) {
  return R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(n) +
         R"(","pid":100,"tid":100,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
         std::to_string(dur) + "},\n";
}
inline std::string Trace(const std::string& events) {
  return R"({"traceEvents":[
{"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}},
)" + events + R"({"ph":"M","name":"process_name","pid":100,"tid":0,"args":{"name":"python"}}
]})";
}

}  // namespace kineto_text
