/**
 * Small dense linear algebra for the cost model. Matrices are flat row-major `number[]` of length d·d so that
 * they serialise to JSON exactly (a double survives a JSON round trip bit for bit).
 */

/** λ·I as a flat d×d matrix. */
export function scaledIdentity(dimension: number, scale: number): number[] {
  const matrix = new Array<number>(dimension * dimension).fill(0);
  for (let i = 0; i < dimension; i++) matrix[i * dimension + i] = scale;
  return matrix;
}

export function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** M·v for a flat d×d matrix. */
export function matVec(matrix: readonly number[], vector: readonly number[]): number[] {
  const d = vector.length;
  const out = new Array<number>(d).fill(0);
  for (let i = 0; i < d; i++) {
    let sum = 0;
    for (let j = 0; j < d; j++) sum += matrix[i * d + j] * vector[j];
    out[i] = sum;
  }
  return out;
}

/** xᵀ M x. */
export function quadraticForm(matrix: readonly number[], x: readonly number[]): number {
  return dot(x, matVec(matrix, x));
}

/** A += x xᵀ, in place. */
export function addOuterProduct(matrix: number[], x: readonly number[]): void {
  const d = x.length;
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) matrix[i * d + j] += x[i] * x[j];
}

/**
 * Sherman–Morrison rank-1 update, in place: given A⁻¹ (symmetric), makes it (A + x xᵀ)⁻¹
 * = A⁻¹ − (A⁻¹x)(A⁻¹x)ᵀ / (1 + xᵀA⁻¹x). O(d²) instead of an O(d³) inversion per step.
 */
export function shermanMorrisonUpdate(inverse: number[], x: readonly number[]): void {
  const d = x.length;
  const ax = matVec(inverse, x);
  const denominator = 1 + dot(x, ax);
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) inverse[i * d + j] -= (ax[i] * ax[j]) / denominator;
}

/** Gauss–Jordan inversion with partial pivoting; undefined when the matrix is (numerically) singular. */
export function invert(matrix: readonly number[], dimension: number): number[] | undefined {
  const d = dimension;
  const work = matrix.slice();
  const inverse = scaledIdentity(d, 1);
  for (let col = 0; col < d; col++) {
    let pivot = col;
    for (let row = col + 1; row < d; row++) {
      if (Math.abs(work[row * d + col]) > Math.abs(work[pivot * d + col])) pivot = row;
    }
    const pivotValue = work[pivot * d + col];
    if (!Number.isFinite(pivotValue) || Math.abs(pivotValue) < 1e-12) return undefined;
    if (pivot !== col) {
      for (let k = 0; k < d; k++) {
        [work[col * d + k], work[pivot * d + k]] = [work[pivot * d + k], work[col * d + k]];
        [inverse[col * d + k], inverse[pivot * d + k]] = [inverse[pivot * d + k], inverse[col * d + k]];
      }
    }
    for (let k = 0; k < d; k++) {
      work[col * d + k] /= pivotValue;
      inverse[col * d + k] /= pivotValue;
    }
    for (let row = 0; row < d; row++) {
      if (row === col) continue;
      const factor = work[row * d + col];
      if (factor === 0) continue;
      for (let k = 0; k < d; k++) {
        work[row * d + k] -= factor * work[col * d + k];
        inverse[row * d + k] -= factor * inverse[col * d + k];
      }
    }
  }
  return inverse;
}

/** Solves A y = b directly (Gaussian elimination); undefined when A is singular. Used to check the fast path. */
export function solve(matrix: readonly number[], rhs: readonly number[]): number[] | undefined {
  const inverse = invert(matrix, rhs.length);
  return inverse ? matVec(inverse, rhs) : undefined;
}

/** Largest |(A·B − I)ᵢⱼ|: how far B is from being A's inverse. */
export function inverseResidual(matrix: readonly number[], inverse: readonly number[], dimension: number): number {
  const d = dimension;
  let worst = 0;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < d; j++) {
      let sum = 0;
      for (let k = 0; k < d; k++) sum += matrix[i * d + k] * inverse[k * d + j];
      worst = Math.max(worst, Math.abs(sum - (i === j ? 1 : 0)));
    }
  }
  return worst;
}
