import threading
import time

from reachy_mini import ReachyMini, ReachyMiniApp

from .audio import AudioPipeline
from .motion import fuse


class {{class_name}}(ReachyMiniApp):
    custom_app_url: str | None = "http://0.0.0.0:8042"

    def run(self, reachy_mini: ReachyMini, stop_event: threading.Event) -> None:
        audio = AudioPipeline()
        state = {"personality": "friendly", "look_yaw": 0.0, "history": []}

        @self.settings_app.post("/personality")
        def set_personality(body: dict) -> dict:
            state["personality"] = str(body.get("prompt") or "friendly")
            return {"personality": state["personality"]}

        @self.settings_app.post("/say")
        def say(body: dict) -> dict:
            audio.push_text(str(body.get("text", "")))
            return {"queued": True}

        @self.settings_app.get("/history")
        def history() -> list:
            return state["history"]

        def converse() -> None:
            while not stop_event.is_set():
                heard = audio.listen(timeout=0.2)
                if not heard:
                    continue
                reply = audio.think(heard, state["personality"])
                state["history"].append({"heard": heard, "said": reply})
                # Turn towards the speaker a little (HARDWARE: use the direction of arrival).
                state["look_yaw"] = 15.0 if len(state["history"]) % 2 else -15.0
                audio.speak(reply, time.time())

        talker = threading.Thread(target=converse, name="conversation", daemon=True)
        talker.start()

        t0 = time.time()
        while not stop_event.is_set():
            now = time.time()
            head, antennas = fuse(now - t0, audio.speech_level(now), state["look_yaw"])
            reachy_mini.set_target(head=head, antennas=antennas)
            time.sleep(0.02)
        talker.join(timeout=1)


if __name__ == "__main__":
    app = {{class_name}}()
    try:
        app.wrapped_run()
    except KeyboardInterrupt:
        app.stop()
