/// The version `workbook --version` and `literate --version` print.
public let workbookVersion = "0.1.0"
