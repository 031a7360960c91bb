// SPDX-License-Identifier: MIT
// NCCL between ranks that own a GPU each (see nccl_communicator.h). Plain C++ over the CUDA runtime
// and NCCL's host API: there is no kernel of formica's own here.
#include "distributed/nccl_communicator.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace formica::distributed {
namespace {

void check_cuda(cudaError_t code, const char* call) {
  if (code != cudaSuccess) throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorString(code));
}

void check_nccl(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) throw std::runtime_error(std::string(call) + " failed: " + ncclGetErrorString(code));
}

}  // namespace

struct NcclCommunicator::State {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  void* buffer = nullptr;  // device: this rank's values, then every rank's
  size_t bytes = 0;

  ~State() {
    if (comm) ncclCommDestroy(comm);
    if (buffer) cudaFree(buffer);
    if (stream) cudaStreamDestroy(stream);
  }

  /// Device room for `needed` bytes (kept between calls: tours of one instance keep their size).
  void reserve(size_t needed) {
    if (needed <= bytes) return;
    if (buffer) check_cuda(cudaFree(buffer), "cudaFree");
    buffer = nullptr;
    check_cuda(cudaMalloc(&buffer, needed), "cudaMalloc");
    bytes = needed;
  }

  /// Host `mine` (count values of `size` bytes) to this rank's slot of the device buffer, an
  /// in-place ncclAllGather, every rank's values back to host `all`.
  void allgather(const void* mine, void* all, size_t count, size_t size, int rank, int ranks, ncclDataType_t type) {
    const size_t slot = count * size;
    reserve(slot * static_cast<size_t>(ranks));
    auto* device = static_cast<char*>(buffer);
    char* own = device + slot * static_cast<size_t>(rank);
    check_cuda(cudaMemcpyAsync(own, mine, slot, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    check_nccl(ncclAllGather(own, device, count, type, comm, stream), "ncclAllGather");
    check_cuda(cudaMemcpyAsync(all, device, slot * static_cast<size_t>(ranks), cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
};

NcclCommunicator::NcclCommunicator(std::unique_ptr<Communicator> bootstrap)
    : bootstrap_(std::move(bootstrap)), state_(std::make_unique<State>()) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    throw std::runtime_error("NCCL: no CUDA device");
  }
  ncclUniqueId id{};
  if (bootstrap_->rank() == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  bootstrap_->broadcast(std::as_writable_bytes(std::span<ncclUniqueId>(&id, 1)), 0);
  check_cuda(cudaStreamCreateWithFlags(&state_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check_nccl(ncclCommInitRank(&state_->comm, bootstrap_->size(), id, bootstrap_->rank()), "ncclCommInitRank");
}

NcclCommunicator::~NcclCommunicator() { state_.reset(); }  // before the bootstrap (MPI) goes

void NcclCommunicator::allgather(std::span<const int32_t> mine, std::span<int32_t> all) {
  expect_gather_sizes(mine.size(), all.size(), size(), "allgather");
  state_->allgather(mine.data(), all.data(), mine.size(), sizeof(int32_t), rank(), size(), ncclInt32);
}

void NcclCommunicator::allgather(std::span<const int64_t> mine, std::span<int64_t> all) {
  expect_gather_sizes(mine.size(), all.size(), size(), "allgather");
  state_->allgather(mine.data(), all.data(), mine.size(), sizeof(int64_t), rank(), size(), ncclInt64);
}

void NcclCommunicator::gather(std::span<const int32_t> mine, std::span<int32_t> all, int root) {
  const int ranks = size(), me = rank();
  if (me == root) expect_gather_sizes(mine.size(), all.size(), ranks, "gather");
  State& s = *state_;
  const size_t bytes = mine.size() * sizeof(int32_t);
  s.reserve(bytes * (me == root ? ranks : 1));
  auto* device = static_cast<int32_t*>(s.buffer);
  int32_t* own = me == root ? device + mine.size() * static_cast<size_t>(me) : device;
  check_cuda(cudaMemcpyAsync(own, mine.data(), bytes, cudaMemcpyHostToDevice, s.stream), "cudaMemcpyAsync");
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  if (me == root) {
    for (int r = 0; r < ranks; ++r)
      if (r != root)
        check_nccl(ncclRecv(device + mine.size() * static_cast<size_t>(r), mine.size(), ncclInt32, r, s.comm, s.stream),
                   "ncclRecv");
  } else {
    check_nccl(ncclSend(own, mine.size(), ncclInt32, root, s.comm, s.stream), "ncclSend");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  if (me == root)
    check_cuda(cudaMemcpyAsync(all.data(), device, bytes * ranks, cudaMemcpyDeviceToHost, s.stream), "cudaMemcpyAsync");
  check_cuda(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
}

void NcclCommunicator::abort(int code) noexcept {
  if (state_ && state_->comm) ncclCommAbort(state_->comm), state_->comm = nullptr;
  bootstrap_->abort(code);
  std::_Exit(code);  // not reached: the bootstrap's abort() ends the process
}

}  // namespace formica::distributed
