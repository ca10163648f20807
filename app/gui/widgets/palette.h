// Every colour the window uses. Core never computes colours; the timeline asks this file for the
// colour of a span style and a key (context, process, thread), so one place decides the look.
#pragma once

#include <imgui.h>

#include <cstdint>

namespace app::gui::widgets {

// What a coloured thing on the timeline is. The key (below) picks a hue within the style.
enum class SpanStyle : uint8_t {
  kPacket,         // GPU packet on a HW queue: hue per context / process
  kPacketPaging,   // paging packet (kernel work)
  kSignalBox,      // fence signal, queued on the CPU -> executed on the GPU (GPUView: dark)
  kWaitBox,        // fence wait, queued -> unblocked (GPUView: light)
  kCpuWait,        // CPU thread blocked in a fence wait
  kTask,           // background (PGO) task on a runtime thread
  kTaskCancelled,  // background task ended by cancel / abandon
  kCpuSlice,       // imported CPU slice
  kOverrun,        // log overrun: data missing window
  kPreempted,      // packet suspended by preemption
};

enum class MarkStyle : uint8_t {
  kInterrupt,          // fence-signal interrupt that released something
  kInterruptSpurious,  // interrupt that released nothing
  kModeChange,         // SetBackgroundProcessingMode call
  kCommit,             // commit completed
  kPreemption,         // preemption request / completion
  kMarker,             // marker / instant from an import
  kSignalQueued,       // CPU queued a fence signal (thread lane)
  kWaitQueued,         // CPU queued a fence wait (thread lane)
  kVsync,              // display VSync
  kPresent,            // a present (marker, or the end of a packet flagged present)
  kError,              // API error, TDR
};

ImU32 SpanColor(SpanStyle style, uint32_t key);
// The folded block drawn in place of many narrow spans of `style`.
ImU32 FoldedColor(SpanStyle style, uint32_t key);
ImU32 MarkColor(MarkStyle style);
// Readable text on top of a span of colour `fill`.
ImU32 TextOn(ImU32 fill);

// Chrome of the timeline.
ImU32 TrackBackground(int row);
ImU32 TrackHeaderText();
ImU32 RulerBackground();
ImU32 RulerTick();
ImU32 RulerText();
ImU32 SelectionFill();
ImU32 SelectionEdge();
ImU32 HoverOutline();
// `crowded`: many arrows in view, drawn fainter.
ImU32 ArrowColor(bool highlighted, bool crowded = false);
// Arrows of the item under the mouse.
ImU32 ArrowHover();
// The selected item's chain of causes: its arrows and the line along each step, and the light
// band over each step's row.
ImU32 ChainArrow();
ImU32 ChainStepFill();
// A bundle of arrows (arrow_lod.h), its count label and the label's background.
ImU32 ArrowBundle(bool crowded = false);
ImU32 ArrowBundleText();
ImU32 ArrowBundleLabel();
// The thin vertical VSync lines across an adapter's rows.
ImU32 VsyncLine();
ImU32 RateCurve();
// Counter rows (queue length): bars, their baseline, the name and value text.
ImU32 CounterFill();
ImU32 CounterBaseline();
ImU32 CounterText();
ImU32 BookmarkColor();
ImU32 CursorLine();
// A prediction tab: the original's packets, outlined over the predicted ones.
ImU32 BaselineOutline();
// The what-if charts: before (the trace) and after (the prediction).
ImU32 BeforeBar();
ImU32 AfterBar();

// Applies the window theme (dark, GPUView-like contrast) to the current ImGui style.
void ApplyTheme(float dpi_scale);

}  // namespace app::gui::widgets
