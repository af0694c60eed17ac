"""The site's own date formats where Django's would mislead (FORMAT_MODULE_PATH): a language not
listed here keeps Django's."""
