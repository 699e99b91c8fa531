"""DynamoDB adapters (PynamoDB): the stored shapes, one repository per aggregate, the unit of work.

``docs/data-model.md`` describes every table, item and access pattern;
``schema.py`` declares the tables once, for the models, the tests, the local
runtime and CDK.
"""
