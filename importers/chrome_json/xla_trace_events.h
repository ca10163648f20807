// The Chrome JSON the XLA profiler writes beside its XSpace (TensorBoard's trace.json.gz, jax's
// perfetto_trace.json.gz): no categories, a process per device named "/device:GPU:N" whose
// threads named "Stream #N(...)" are its streams, the others ("XLA Ops", "Steps") rows of what
// the device ran; host launches carry args.correlation_id, as their kernels do. Given the
// categories the Kineto mapping reads, the same device streams become the same queues as the
// XSpace importer makes, and the launches link by correlation id.
#pragma once

#include <functional>
#include <string_view>

#include "importers/chrome_json/chrome_event.h"

namespace importers::chrome_json {

struct XlaTraceCounts {
  uint64_t device_processes = 0;
  uint64_t streams = 0;
  uint64_t packets = 0;   // stream events given a device category
  uint64_t launches = 0;  // host events with a correlation id, given the launch category
};

// Gives the uncategorised events of an XLA profile's device streams the category "kernel"
// ("gpu_memcpy" / "gpu_memset" by their name), marks those processes and tracks as a device's,
// and gives uncategorised host events with a correlation id the category "xla_launch" (a
// runtime call, string_roles.cpp). `intern` returns the id of a category text (added to
// `trace.writer_strings`). Nothing is changed in a trace with no "/device:" process.
XlaTraceCounts MarkXlaDeviceStreams(ParsedTrace& trace,
                                    const std::function<StringId(std::string_view)>& intern);

}  // namespace importers::chrome_json
