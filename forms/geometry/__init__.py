"""The sheet's geometry: the triangle drawing, the contract/result column, their constants."""
