#include "core/report/launch_json.h"

#include "core/report/report_json.h"

namespace core::report {

using namespace core::analysis;  // NOLINT

Json FenceGapsJson(const ReportData& d, const std::vector<FenceGapTotal>& totals) {
  return ObjectArray(totals, [&](Json& x, const FenceGapTotal& f) {
    x.Set("fence", d.FenceName(f.fence));
    x.Set("from", d.SignallerName(f.signalling, f.cpu_signal));
    x.Set("ns", f.ns);
    x.Set("link_inferred_ns", f.link_inferred_ns);
  });
}

Json SyncGapsJson(const ReportData& d, const std::vector<SyncGapTotal>& totals) {
  return ObjectArray(totals, [&](Json& x, const SyncGapTotal& s) {
    x.Set("thread", d.ThreadName(s.thread));
    x.Set("call", s.call != 0 ? d.store->String(s.call) : std::string());
    x.Set("fence", s.fence != 0 ? d.FenceName(s.fence) : std::string());
    x.Set("ns", s.ns);
  });
}

Json IdleSplitJson(const ReportData& d) {
  return ObjectArray(d.gaps.split, [&](Json& q, const QueueIdleSplit& s) {
    q.Set("name", d.QueueName(s.queue));
    q.Set("kernel_wait_max_ns", kKernelWaitMaxNs);
    for (size_t c = 0; c < kIdleClasses; ++c) {
      const std::string name = IdleClassName(static_cast<IdleClass>(c));
      q.Set(name + "_ns", s.ns[c]);
      q.Set(name + "_gaps", s.gaps[c]);
    }
    for (size_t why = 0; why < kOtherReasons; ++why) {
      q.Set(std::string("other_") + OtherReasonName(static_cast<OtherReason>(why)) + "_ns",
            s.other_ns[why]);
    }
    q.Set("outside_ns", s.outside_ns);
    q.Set("other_waiting_on", FenceGapsJson(d, s.other_on_fence));
    q.Set("other_synchronised_on", SyncGapsJson(d, s.other_on_sync));
  });
}

Json LaunchDelayJson(const ReportData& d) {
  auto outlier_json = [&](Json& y, const LaunchDelayOutlier& o) {
    y.Set("packet", o.name != 0 ? d.store->String(o.name) : std::string());
    y.Set("packet_id", d.recon.packets.Get<&Packet::packet_id>(o.packet));
    y.Set("start_ns", o.start);
    y.Set("call_end_ns", o.call_end);
    y.Set("thread", d.ThreadName(o.thread));
    y.Set("delay_ns", o.delay);
  };
  return ObjectArray(d.launch_delays.per_queue, [&](Json& x, const QueueLaunchDelay& q) {
    x.Set("name", d.QueueName(q.queue));
    SetPercentiles(x, q.delay);
    x.Set("negative", q.negative);
    x.Set("without_launch", q.without_launch);
    x.Set("outliers", ObjectArray(q.outliers, outlier_json));
  });
}

Json QueueLengthJson(const ReportData& d) {
  const QueueLengths& all = d.queue_lengths;
  return ObjectArray(all.per_queue, [&](Json& x, const QueueLength& q) {
    x.Set("name", d.QueueName(q.queue));
    x.Set("source", all.from_launch_calls ? "launch_calls" : "packet_submitted");
    x.Set("max", q.max);
    x.Set("mean", q.mean);
    x.Set("packets_counted", q.packets_counted);
    x.Set("packets_left_out", q.packets_left_out);
    Json series = Json::Object();
    series.Set("start_ns", all.start_ns);
    series.Set("bin_ns", all.bin_ns);
    Json max = Json::Array();
    for (uint32_t v : q.bin_max) max.Push(v);
    series.Set("max", std::move(max));
    x.Set("series", std::move(series));
  });
}

Json LaunchLinksJson(const ReportData& d) {
  Json x = Json::Object();
  x.Set("cpu_launch_flows", d.launches.flows);
  x.Set("packets_linked", d.launches.packets_linked);
  x.Set("packets", static_cast<uint64_t>(d.recon.packets.size()));
  x.Set("flows_unmatched", d.launches.flows_unmatched);
  return x;
}

}  // namespace core::report
