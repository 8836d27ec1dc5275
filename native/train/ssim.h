// The structural-similarity term of the training loss (3DGS: L = (1 − λ)·L1 + λ·(1 − SSIM), λ = 0.2), with
// its gradient: SSIM of Wang et al. 2004 over an 11×11 gaussian window (σ 1.5), zero-padded, per channel.
#pragma once
#include <vector>

#include "train/training.h"

namespace sr::train {

// Mean SSIM over pixels and channels of two RGB images (3 floats per pixel); with grad, its gradient with
// respect to `a`.
double meanSsim(const std::vector<float>& a, const std::vector<float>& b, int width, int height, std::vector<float>* grad);

// (1 − λ)·L1 + λ·(1 − mean SSIM) and its gradient with respect to `rendered`.
float l1SsimLoss(const std::vector<float>& rendered, const std::vector<float>& target, int width, int height, float lambda, std::vector<float>& grad);

}  // namespace sr::train
