"""The audio pipeline: PLACEHOLDERS that need the real robot's hardware.

Replace each method with your microphone capture, speech-to-text, language
model and text-to-speech. Until then the pipeline works on text only, so the
app runs on a simulated robot.
"""

import queue
from typing import Optional


class AudioPipeline:
    def __init__(self) -> None:
        # HARDWARE: open the robot's microphone array and speaker here.
        self.hardware_available = False
        self._typed: "queue.Queue[str]" = queue.Queue()
        self._speaking_until = 0.0

    def push_text(self, text: str) -> None:
        """Stand-in for speech: text typed on the settings page."""
        self._typed.put(text)

    def listen(self, timeout: float) -> Optional[str]:
        """HARDWARE: capture audio, detect speech, transcribe it."""
        try:
            return self._typed.get(timeout=timeout)
        except queue.Empty:
            return None

    def think(self, heard: str, personality: str) -> str:
        """PLACEHOLDER: call your language model with the personality prompt."""
        return f"({personality}) You said: {heard}"

    def speak(self, text: str, now: float) -> None:
        """HARDWARE: synthesise speech and play it on the robot's speaker."""
        print(f"[say] {text}", flush=True)
        self._speaking_until = now + 0.06 * len(text)

    def speech_level(self, now: float) -> float:
        """Loudness of the robot's own voice in [0, 1]; drives the head wobble."""
        return 1.0 if now < self._speaking_until else 0.0
