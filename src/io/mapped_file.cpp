// Read-only file mapping for the TSPLIB readers (see mapped_file.h).
#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "io/tsplib.h"

namespace formica::io {

MappedFile::MappedFile(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  FORMICA_EXPECTS(fd >= 0, path.string(), ": cannot open (", std::strerror(errno), ")");
  struct stat info {};
  const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  if (regular && info.st_size > 0) {
    void* map = ::mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      map_ = static_cast<const char*>(map);
      size_ = static_cast<size_t>(info.st_size);
    }
  }
  ::close(fd);
  if (map_ == nullptr && !(regular && info.st_size == 0)) copy_ = read_text_file(path);
}

MappedFile::~MappedFile() {
  if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
}

}  // namespace formica::io
