"""The secret kinds of DECISIONS.md and the alphabets secrets are made of, for the tests
and the properties."""

from __future__ import annotations

import string

VOCABULARY = frozenset(
    {
        "aws_access_key_id",
        "aws_secret_key",
        "github_token",
        "slack_token",
        "stripe_secret_key",
        "google_api_key",
        "openai_api_key",
        "anthropic_api_key",
        "jwt",
        "private_key",
        "npm_token",
        "sendgrid_api_key",
        "twilio_api_key",
        "password_in_url",
        "generic_secret",
        "gitlab_token",
        "huggingface_token",
        "pypi_token",
        "digitalocean_token",
        "shopify_token",
        "databricks_token",
        "telegram_bot_token",
        "slack_webhook_url",
        "azure_storage_key",
        "basic_auth",
        "google_oauth_token",
        "google_oauth_client_secret",
        "azure_ad_client_secret",
        "mailgun_api_key",
        "discord_bot_token",
    }
)

ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"
BASE32 = string.ascii_uppercase + "234567"
