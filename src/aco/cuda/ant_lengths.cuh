// SPDX-License-Identifier: MIT
// Each ant's exact tour length (a block per ant, CUB BlockReduce over its edges), the fixed-point
// deposit 1 / L_k that the pheromone update adds, the transposed successor arrays of Uchida's
// Figure 5 (successors[i * m + k] = t_k(i), the city after i in ant k's tour), and the
// iteration-best ant (CUB ArgMin).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace formica::aco::cuda {

/// lengths[k] = exact length of tours[k] (int distances from the ld x ld matrix);
/// deposits[k] = round(scale / lengths[k]), the deposit 1 / L_k in fixed point;
/// successors[i * m + k] = the city after i in tours[k].
void launch_ant_lengths(const int32_t* distances, int ld, const int32_t* tours, int n, int m, long long* lengths,
                        unsigned long long* deposits, int32_t* successors, double scale, cudaStream_t stream);

/// Bytes of temporary storage launch_best_ant needs for m ants.
size_t best_ant_temp_bytes(int m);

/// best_length[0] = min over lengths, best_index[0] = the first ant reaching it.
void launch_best_ant(const long long* lengths, int m, long long* best_length, int* best_index, void* temp,
                     size_t temp_bytes, cudaStream_t stream);

}  // namespace formica::aco::cuda
