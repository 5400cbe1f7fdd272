"""The handwritten-digit recognizer (a small CNN run by cv2.dnn), adapted to one writer."""
