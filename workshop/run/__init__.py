"""Running the notebooks: in place (execute), ahead of a build (preexecute), under
other BLAS kernels (blas_env, kernel_diff), on 64-bit ARM (arm), with perturbed draws
(perturb), every way a reader opens them (paths), and their hidden first cell
(colab_cell)."""
