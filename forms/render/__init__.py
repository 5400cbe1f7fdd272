"""Drawing sheets with ReportLab: blank and filled sheets, batches, rasterised pages."""
