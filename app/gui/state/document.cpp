#include "app/gui/state/document.h"

#include "core/model/error.h"
#include "core/store/trace_file.h"

namespace app::gui::state {

std::unique_ptr<Document> MakeDocument(core::store::TraceStore store) {
  auto doc = std::make_unique<Document>();
  doc->path = store.path;
  doc->store = std::move(store);
  doc->reconstruction = core::analysis::Reconstruct(doc->store);
  doc->model = timeline::BuildTimelineModel(doc->store, doc->reconstruction);
  ResetView(doc->view, {doc->model.start, doc->model.end}, doc->model.tracks.size(),
            doc->model.groups.size());
  return doc;
}

std::unique_ptr<Document> LoadDocument(const std::filesystem::path& path,
                                       const std::function<void(double)>& progress) {
  if (!std::filesystem::exists(path)) throw core::Error(path.string() + ": no such file");
  if (!core::store::LooksLikeSqlite(path)) {
    throw core::Error(path.string() +
                      ": not a fencescope trace database; convert it first with "
                      "`fencescope import " + path.string() + " OUT.db`");
  }
  auto store = core::store::LoadTrace(path, [&](double f) {
    if (progress) progress(0.8 * f);
  });
  auto doc = MakeDocument(std::move(store));
  doc->path = path;
  if (progress) progress(1.0);
  return doc;
}

DocumentLoader::~DocumentLoader() {
  if (m_thread.joinable()) m_thread.join();
}

void DocumentLoader::Start(const std::filesystem::path& path) {
  if (m_busy.load()) return;
  if (m_thread.joinable()) m_thread.join();
  m_busy = true;
  m_progress = 0.0;
  m_path = path;
  {
    std::lock_guard lock(m_mutex);
    m_done = false;
    m_result.reset();
    m_error.clear();
  }
  m_thread = std::thread([this, path] {
    std::unique_ptr<Document> doc;
    std::string error;
    try {
      doc = LoadDocument(path, [this](double f) { m_progress = f; });
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(m_mutex);
    m_result = std::move(doc);
    m_error = std::move(error);
    m_done = true;
    m_busy = false;
  });
}

std::unique_ptr<Document> DocumentLoader::TakeResult(std::string& error) {
  std::lock_guard lock(m_mutex);
  if (!m_done) return nullptr;
  m_done = false;
  error = std::move(m_error);
  return std::move(m_result);
}

}  // namespace app::gui::state
