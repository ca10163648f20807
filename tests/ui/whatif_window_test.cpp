// What-if in the window on a simulated trace: a question asked from a packet's context menu is
// replayed on a worker thread while the window keeps drawing and answering keys, and its
// prediction opens in a tab of its own with the same span and step figures as `fencescope
// whatif --json` for the same edits, the original's packets outlined under the predicted ones.
#include <gtest/gtest.h>

#include <limits>

#include "app/gui/state/simulation_job.h"
#include "core/analysis/critical_chain.h"
#include "tests/ui/whatif_driver.h"

namespace {

using namespace app::gui;  // NOLINT

class WhatIfWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    m_db = test_support::SimulateTrace(m_dir / "default.db", "default");
    m_main.OpenNow(m_db);
    ASSERT_NE(m_main.document(), nullptr);
    m_window.Frames(m_main, 2);
  }
  test_support::ScratchDir m_dir;
  std::filesystem::path m_db;
  test_support::HeadlessWindow m_window{1600, 1000};
  views::MainWindow m_main{{}, {}};
};

TEST_F(WhatIfWindow, APacketTwiceAsFastAskedFromItsMenuPredictsWhatTheCommandPrints) {
  state::Document& doc = *m_main.document();
  const uint32_t packet = test_support::LongestPacket(doc);
  const std::string name =
      doc.store.String(doc.analysis.recon.packets.Get<&core::analysis::Packet::name>(packet));
  // The menu's first question about a packet: its name twice as fast.
  const auto asked = test_support::AskAboutPacket(m_window, m_main, packet, 0);
  ASSERT_NE(asked.prediction, nullptr) << m_main.whatif().error();
  EXPECT_EQ(m_main.whatif().edits().scale.size(), 1u);
  EXPECT_GT(asked.frames_while_replaying, 0);
  EXPECT_TRUE(asked.zoomed_while_replaying);
  // Its own tab, beside the original's.
  EXPECT_EQ(m_main.OpenDocuments(), 2u);
  EXPECT_EQ(asked.prediction->original, m_db);
  test_support::ExpectSameAsCommand(*asked.prediction, m_db, "--scale '" + name + "=0.5'",
                                    m_dir / "cli.db");
  // The original's packets outlined in the prediction tab.
  state::FitAll(m_main.document()->view);
  m_window.Frames(m_main, 2);
  EXPECT_GT(m_main.timeline().baseline_outlines(), 0u);
}

TEST_F(WhatIfWindow, CancelStopsTheReplayAndOpensNothing) {
  state::Document& doc = *m_main.document();
  core::replay::Edits edits;
  edits.cpu_scale = 0.5;
  m_main.whatif().Ask(doc.path, edits, "host 2x faster");
  m_main.whatif().Cancel();
  for (int i = 0; i < 2000 && m_main.whatif().Busy(); ++i) m_window.Frame(m_main);
  m_window.Frames(m_main, 2);
  // Either the replay was stopped (nothing opens) or it had finished before Cancel reached it.
  if (m_main.OpenDocuments() == 1) {
    EXPECT_EQ(m_main.document()->prediction, nullptr);
    EXPECT_TRUE(m_main.whatif().error().empty()) << m_main.whatif().error();
    EXPECT_FALSE(std::filesystem::exists(m_dir / "default-whatif-1.db"));  // no file left
  } else {
    EXPECT_TRUE(std::filesystem::exists(m_dir / "default-whatif-1.db"));
  }
}

TEST_F(WhatIfWindow, AWaitOffersItselfAndEveryWaitOfItsQueueOnTheSignallingOne) {
  state::Document& doc = *m_main.document();
  const auto& r = doc.analysis.recon;
  for (uint32_t i = 0; i < r.waits.size(); ++i) {
    const auto w = r.waits[i];
    if (w.signal == core::analysis::kNoIndex || r.signals[w.signal].cpu) continue;
    const auto questions = state::QuestionsAbout(doc, {state::SelectionKind::kWait, i, 0});
    ASSERT_EQ(questions.size(), 2u);
    EXPECT_EQ(questions[0].edits.remove_wait, std::vector<int64_t>{w.wait_id});
    ASSERT_EQ(questions[1].edits.remove_waits.size(), 1u);
    EXPECT_EQ(questions[1].edits.remove_waits[0].first, doc.store.FindQueue(w.queue)->name);
    EXPECT_EQ(questions[1].edits.remove_waits[0].second,
              doc.store.FindQueue(r.signals[w.signal].queue)->name);
    return;
  }
  FAIL() << "the default scenario has a GPU wait released by another queue";
}

}  // namespace

namespace {

// The Opportunities panel: the report's ranked list; a click on a bar asks its change in the
// What-if panel, whose prediction is what `whatif` prints for the options the report gives it.
TEST_F(WhatIfWindow, ClickingAnOpportunityPredictsItsEdit) {
  m_main.ShowPanel(views::Panel::kOpportunities);
  const core::replay::Opportunities* ranking = nullptr;
  for (int i = 0; i < 20000 && !(ranking = m_main.opportunities().RankingOf(m_db)); ++i) {
    m_window.Frame(m_main);
  }
  ASSERT_NE(ranking, nullptr);
  ASSERT_FALSE(ranking->list.empty());
  m_window.Frames(m_main, 2);
  ASSERT_EQ(m_main.opportunities().bar_centres().size(), ranking->list.size());
  // The report's list, as `report --format json` gives it.
  const core::report::Json report = test_support::RunFencescopeJson(
      "report " + test_support::Quote(m_db) + " --format json");
  const core::report::Json* listed = core::report::FindPath(report, "opportunities");
  ASSERT_NE(listed, nullptr);
  ASSERT_EQ(listed->size(), ranking->list.size());
  const core::replay::Opportunity first = ranking->list[0];
  EXPECT_EQ(first.predicted_span_ns, test_support::IntAt(report, "opportunities[0].predicted_span_ns"));
  test_support::Click(m_window, m_main, m_main.opportunities().bar_centres()[0], 0);
  for (int i = 0; i < 20000 && !m_main.document()->prediction; ++i) m_window.Frame(m_main);
  const state::Prediction* p = m_main.document()->prediction.get();
  ASSERT_NE(p, nullptr) << m_main.whatif().error();
  EXPECT_EQ(p->result.edits, first.edit);
  // The replay into a file predicts what the report's replay in memory did.
  EXPECT_EQ(p->result.span_after_ns, first.predicted_span_ns);
  test_support::ExpectSameAsCommand(*p, m_db, first.edit, m_dir / "cli.db");
}

// The ranking replays every candidate on a worker thread: a progress bar meanwhile, and Esc
// stops it (no ranking shown, "Rank again" offered); asked again, it ranks in full.
TEST_F(WhatIfWindow, EscCancelsTheRankingAndAskedAgainItRanksInFull) {
  m_main.ShowPanel(views::Panel::kOpportunities);
  // The tab opens, then the panel asks for the ranking.
  for (int i = 0; i < 10 && !m_main.opportunities().Computing(); ++i) m_window.Frame(m_main);
  ASSERT_TRUE(m_main.opportunities().Computing());
  ImGuiIO& io = ImGui::GetIO();
  // The key GLFW's backend maps Esc to (the headless context maps none).
  if (io.KeyMap[ImGuiKey_Escape] < 0) io.KeyMap[ImGuiKey_Escape] = 256;
  io.KeysDown[io.KeyMap[ImGuiKey_Escape]] = true;
  m_window.Frame(m_main);
  io.KeysDown[io.KeyMap[ImGuiKey_Escape]] = false;
  for (int i = 0; i < 200000 && m_main.opportunities().Computing(); ++i) m_window.Frame(m_main);
  m_window.Frames(m_main, 2);
  const core::replay::Opportunities* ranking = m_main.opportunities().RankingOf(m_db);
  ASSERT_NE(ranking, nullptr);
  // Esc came a frame after the start, while the trace was still being loaded and analysed.
  EXPECT_TRUE(ranking->cancelled);
  EXPECT_TRUE(ranking->list.empty());
  m_main.opportunities().Reset();  // what "Rank again" does
  ranking = nullptr;
  for (int i = 0; i < 200000 && !(ranking = m_main.opportunities().RankingOf(m_db)); ++i) {
    m_window.Frame(m_main);
  }
  ASSERT_NE(ranking, nullptr);
  EXPECT_FALSE(ranking->cancelled);
  EXPECT_FALSE(ranking->list.empty());
}

}  // namespace

namespace {

// "Critical paths" selects the packet the critical path ends at: the chain of causes ending
// there (what the timeline draws for a selection) is the report's critical path, step by step.
TEST_F(WhatIfWindow, TheChainOfThePathEndPacketIsTheCriticalPath) {
  const auto& recon = m_main.document()->analysis.recon;
  const uint32_t packet = core::analysis::CriticalPathEndPacket(recon);
  ASSERT_NE(packet, core::analysis::kNoIndex);
  const auto chain =
      core::analysis::ComputeChainTo(recon, {core::analysis::ChainItemKind::kPacket, packet});
  const auto path = core::analysis::ComputeCriticalPath(recon);
  ASSERT_FALSE(path.steps.empty());
  ASSERT_EQ(chain.steps.size(), path.steps.size());
  for (size_t i = 0; i < path.steps.size(); ++i) {
    EXPECT_EQ(chain.steps[i].start, path.steps[i].start) << i;
    EXPECT_EQ(chain.steps[i].end, path.steps[i].end) << i;
    EXPECT_EQ(chain.steps[i].kind, path.steps[i].kind) << i;
  }
  // Its chain ends where the trace's last run segment ends (a packet still running at the
  // end runs to the end of the trace).
  core::model::TimeNs last = std::numeric_limits<core::model::TimeNs>::min();
  for (const auto& q : recon.queues) {
    for (const auto& s : q.segments) last = std::max(last, s.end);
  }
  EXPECT_EQ(chain.end, last);
}

// A row of the Packets panel asks about its name: twice as fast, removed.
TEST_F(WhatIfWindow, APacketNameAsksItselfTwiceAsFastAndRemoved) {
  state::Document& doc = *m_main.document();
  const uint32_t packet = test_support::LongestPacket(doc);
  const auto name = doc.analysis.recon.packets.Get<&core::analysis::Packet::name>(packet);
  const auto questions =
      state::QuestionsAbout(doc, {state::SelectionKind::kPacketName, name, 0});
  ASSERT_EQ(questions.size(), 2u);
  ASSERT_EQ(questions[0].edits.scale.size(), 1u);
  EXPECT_EQ(questions[0].edits.scale[0].first, doc.store.String(name));
  EXPECT_EQ(questions[0].edits.scale[0].second, 0.5);
  EXPECT_EQ(questions[1].edits.scale[0].second, 0.0);
}

}  // namespace

namespace {

// A question asked while another replays replaces it: the prediction that opens is the second's.
TEST_F(WhatIfWindow, AQuestionAskedDuringAReplayReplacesIt) {
  state::Document& doc = *m_main.document();
  core::replay::Edits host;
  host.cpu_scale = 0.5;
  m_main.whatif().Ask(doc.path, host, "host 2x faster");
  const uint32_t packet = test_support::LongestPacket(doc);
  const std::string name =
      doc.store.String(doc.analysis.recon.packets.Get<&core::analysis::Packet::name>(packet));
  core::replay::Edits faster;
  faster.scale.push_back({name, 0.5});
  m_main.whatif().Ask(doc.path, faster, "faster");
  for (int i = 0; i < 20000 && !m_main.document()->prediction; ++i) m_window.Frame(m_main);
  m_window.Frames(m_main, 2);
  const state::Prediction* p = m_main.document()->prediction.get();
  ASSERT_NE(p, nullptr) << m_main.whatif().error();
  EXPECT_EQ(p->result.edits, "--scale '" + name + "=0.5'");
  EXPECT_EQ(m_main.OpenDocuments(), 2u);  // one prediction tab, not two
}

}  // namespace
