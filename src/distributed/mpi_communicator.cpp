// SPDX-License-Identifier: MIT
// MPI ranks over host buffers (see mpi_communicator.h).
#include "distributed/mpi_communicator.h"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace formica::distributed {
namespace {

/// Throws std::runtime_error naming the call and MPI's own words for `code` (MPI's default error
/// handler aborts first, so this mostly documents intent; MPI_ERRORS_RETURN makes it reachable).
void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<size_t>(length)));
}

int count_of(size_t values, const char* call) {
  if (values > static_cast<size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument(std::string(call) + ": " + std::to_string(values) + " values are more than MPI counts");
  return static_cast<int>(values);
}

}  // namespace

MpiCommunicator::MpiCommunicator(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  MPI_Comm host;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host),
        "MPI_Comm_split_type");
  MPI_Comm_rank(host, &local_rank_);
  MPI_Comm_size(host, &local_size_);
  MPI_Comm_free(&host);
}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void MpiCommunicator::allgather(std::span<const int32_t> mine, std::span<int32_t> all) {
  expect_gather_sizes(mine.size(), all.size(), size_, "allgather");
  const int count = count_of(mine.size(), "MPI_Allgather");
  check(MPI_Allgather(mine.data(), count, MPI_INT32_T, all.data(), count, MPI_INT32_T, MPI_COMM_WORLD),
        "MPI_Allgather");
}

void MpiCommunicator::allgather(std::span<const int64_t> mine, std::span<int64_t> all) {
  expect_gather_sizes(mine.size(), all.size(), size_, "allgather");
  const int count = count_of(mine.size(), "MPI_Allgather");
  check(MPI_Allgather(mine.data(), count, MPI_INT64_T, all.data(), count, MPI_INT64_T, MPI_COMM_WORLD),
        "MPI_Allgather");
}

void MpiCommunicator::gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) {
  if (rank_ == root) expect_gather_sizes(mine.size(), all.size(), size_, "gather");
  const int count = count_of(mine.size(), "MPI_Gather");
  check(MPI_Gather(mine.data(), count, MPI_INT32_T, rank_ == root ? all.data() : nullptr, count, MPI_INT32_T, root,
                   MPI_COMM_WORLD),
        "MPI_Gather");
}

void MpiCommunicator::broadcast(std::span<std::byte> bytes, int root) {
  check(MPI_Bcast(bytes.data(), count_of(bytes.size(), "MPI_Bcast"), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
}

void MpiCommunicator::abort(int code) noexcept {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest if it did
}

}  // namespace formica::distributed
