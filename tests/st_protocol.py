"""What a browser tab says in Streamlit's websocket protocol (its BackMsg and ForwardMsg protobufs),
shared by the server tests' client (tests/st_client.py, on threads) and the class load test
(benchmarks/bench_class.py, on gevent under Locust).

    class Tab(TabProtocol): ...
        self.take_session(msg)                 what a browser keeps of a ForwardMsg -> the message's type
        self.rerun_msg(state_values, page=…)   the rerun_script BackMsg of a page load or a widget change
        request_id, back = self.file_urls_msg(name)      asks for a file's upload URL
        uploader_state(widget_id, name, size, urls)      the uploader's widget state once the file is PUT
"""
from __future__ import annotations

import uuid

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

EARLY = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_EARLY_FOR_RERUN")


class TabProtocol:
    """The session facts a browser tab keeps: its session id, the query string, the menu's pages (url
    path -> page_script_hash), the current page and the upload URLs the server gave."""

    def __init__(self, base_url: str, query_string: str = ""):
        self.base, self.query_string = base_url.rstrip("/"), query_string
        self.session_id, self.page_hash = "", ""
        self.pages: dict[str, str] = {}
        self.file_urls: dict[str, object] = {}                # request id -> file_urls_response

    def take_session(self, msg: ForwardMsg) -> str | None:
        kind = msg.WhichOneof("type")
        if kind == "new_session" and msg.new_session.HasField("initialize"):
            self.session_id = msg.new_session.initialize.session_id
        elif kind == "navigation":
            self.pages = {p.url_pathname: p.page_script_hash for p in msg.navigation.app_pages}
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "file_urls_response":
            self.file_urls[msg.file_urls_response.response_id] = msg.file_urls_response
        return kind

    def rerun_msg(self, widget_states, page: str | None = None, fragment: str = "", page_name: str = "") -> BackMsg:
        """A run of the current page (or of `page`, a page_script_hash; "" with page_name: a page's URL),
        or of one fragment, with these widget states, from a browser in Seoul."""
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_hash if page is None else page
        state.page_name = page_name
        state.fragment_id = fragment
        state.widget_states.widgets.extend(widget_states)
        state.context_info.timezone = "Asia/Seoul"
        state.context_info.timezone_offset = -540
        state.context_info.locale = "ko-KR"
        state.context_info.url = f"{self.base}/?{self.query_string}"
        return back

    def file_urls_msg(self, name: str) -> tuple[str, BackMsg]:
        back = BackMsg()
        request_id = uuid.uuid4().hex
        back.file_urls_request.request_id = request_id
        back.file_urls_request.file_names.append(name)
        back.file_urls_request.session_id = self.session_id
        return request_id, back


def uploader_state(widget_id: str, name: str, size: int, urls) -> WidgetState:
    """st.file_uploader's state once the file is PUT to urls.upload_url (urls: a file_urls_response's)."""
    state = WidgetState(id=widget_id)
    info = state.file_uploader_state_value.uploaded_file_info.add()
    info.name, info.size, info.file_id = name, size, urls.file_id
    info.file_urls.CopyFrom(urls)
    return state
