"""The one-time OAuth2 consent with Google or Microsoft, through the providers' own libraries
(`pip install 'pbem[oauth]'`: google-auth-oauthlib, msal), giving the grant pbem then keeps and
renews itself (pbem.mail.oauth).

Google: a local-redirect flow (Google offers no device flow for the mail scope): pbem prints an
address to open in a browser on the same machine and listens on localhost for the answer.
Microsoft: the device-code flow: pbem prints a code to enter at microsoft.com/devicelogin from
any browser. Neither provider can be reached from the tests, so these two functions are the
only untested part; the renewal that follows is tested against a local token endpoint.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from pbem.mail.oauth import OAuthError, OAuthGrant

GOOGLE_TOKEN_ENDPOINT = "https://oauth2.googleapis.com/token"
GOOGLE_AUTH_ENDPOINT = "https://accounts.google.com/o/oauth2/auth"
GOOGLE_SCOPE = "https://mail.google.com/"
"""The only scope Gmail takes for IMAP and SMTP."""
MICROSOFT_AUTHORITY = "https://login.microsoftonline.com/{tenant}"
MICROSOFT_TOKEN_ENDPOINT = MICROSOFT_AUTHORITY + "/oauth2/v2.0/token"
MICROSOFT_SCOPES = (
    "https://outlook.office.com/IMAP.AccessAsUser.All",
    "https://outlook.office.com/SMTP.Send",
)
# msal asks for offline_access (the refresh token) by itself and refuses it in its scope list;
# the refresh grant must name it again.
MICROSOFT_REFRESH_SCOPE = " ".join((*MICROSOFT_SCOPES, "offline_access"))
INSTALL_HINT = "install the providers' libraries first: pip install 'pbem[oauth]'"

Tell = Callable[[str], None]
"""Shows the person at the keyboard what to do (an address to open, a code to enter)."""


@dataclass(frozen=True)
class ConsentRequest:
    user: str
    client_id: str
    client_secret: str | None = None
    tenant: str = "common"


def google_consent(request: ConsentRequest, tell: Tell) -> OAuthGrant:
    try:
        from google_auth_oauthlib.flow import InstalledAppFlow
    except ImportError as error:
        raise OAuthError(INSTALL_HINT) from error
    if not request.client_secret:
        raise OAuthError(
            "Google needs --client-secret: the secret of the OAuth client (type 'Desktop app') "
            "made in the Google Cloud console"
        )
    flow = InstalledAppFlow.from_client_config(
        {
            "installed": {
                "client_id": request.client_id,
                "client_secret": request.client_secret,
                "auth_uri": GOOGLE_AUTH_ENDPOINT,
                "token_uri": GOOGLE_TOKEN_ENDPOINT,
            }
        },
        scopes=[GOOGLE_SCOPE],
    )
    tell("Waiting for the browser: the address follows.")
    credentials = flow.run_local_server(
        host="localhost",
        port=0,
        open_browser=False,
        authorization_prompt_message=(
            "Open this address in a browser on this machine (or through an SSH tunnel to it) "
            "and allow pbem to use the mailbox:\n{url}"
        ),
        login_hint=request.user,
        prompt="consent",  # so Google hands out a refresh token even on a second login
    )
    if not credentials.refresh_token:
        raise OAuthError("Google gave no refresh token; run `pbem auth login` again")
    expiry = credentials.expiry.timestamp() if credentials.expiry else time.time()
    return OAuthGrant(
        provider="google",
        user=request.user,
        client_id=request.client_id,
        client_secret=request.client_secret,
        token_endpoint=GOOGLE_TOKEN_ENDPOINT,
        refresh_token=credentials.refresh_token,
        access_token=credentials.token,
        expires_at=expiry,
    )


def microsoft_consent(request: ConsentRequest, tell: Tell) -> OAuthGrant:
    try:
        import msal
    except ImportError as error:
        raise OAuthError(INSTALL_HINT) from error
    try:
        application = msal.PublicClientApplication(
            request.client_id, authority=MICROSOFT_AUTHORITY.format(tenant=request.tenant)
        )
    except ValueError as error:  # msal's answer to an authority it cannot use
        raise OAuthError(f"--tenant {request.tenant!r} is not usable: {error}") from error
    flow = application.initiate_device_flow(scopes=list(MICROSOFT_SCOPES))
    if "user_code" not in flow:
        raise OAuthError(f"Microsoft would not start the login: {_reason(flow)}")
    tell(str(flow["message"]))
    asked_at = time.time()
    result = application.acquire_token_by_device_flow(flow)
    if "refresh_token" not in result or "access_token" not in result:
        raise OAuthError(f"Microsoft refused the login: {_reason(result)}")
    return OAuthGrant(
        provider="microsoft",
        user=request.user,
        client_id=request.client_id,
        token_endpoint=MICROSOFT_TOKEN_ENDPOINT.format(tenant=request.tenant),
        refresh_token=result["refresh_token"],
        scope=MICROSOFT_REFRESH_SCOPE,
        access_token=result["access_token"],
        expires_at=asked_at + float(result.get("expires_in", 3600)),
    )


PROVIDERS: dict[str, Callable[[ConsentRequest, Tell], OAuthGrant]] = {
    "google": google_consent,
    "microsoft": microsoft_consent,
}


def _reason(answer: dict[str, object]) -> str:
    return str(answer.get("error_description") or answer.get("error") or answer)
